#!/usr/bin/python3
"""Minimal Xray API client: calls ObservatoryService.GetOutboundStatus and prints the statuses as JSON lines.

Usage: xray_client.py HOST:PORT
Stubs are generated at run time from xray_observatory.proto (next to this file) with grpc_tools.
"""
import importlib
import json
import os
import sys
import tempfile

from grpc_tools import protoc
import grpc


def load_stubs():
    here = os.path.dirname(os.path.abspath(__file__))
    out = tempfile.mkdtemp(prefix="xray-client-")
    code = protoc.main(["protoc", "-I" + here, "--python_out=" + out, "--grpc_python_out=" + out,
                        os.path.join(here, "xray_observatory.proto")])
    if code != 0:
        raise SystemExit("protoc failed with exit code %d" % code)
    sys.path.insert(0, out)
    return importlib.import_module("xray_observatory_pb2"), importlib.import_module("xray_observatory_pb2_grpc")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: xray_client.py HOST:PORT")
    pb2, pb2_grpc = load_stubs()
    with grpc.insecure_channel(sys.argv[1]) as channel:
        stub = pb2_grpc.ObservatoryServiceStub(channel)
        response = stub.GetOutboundStatus(pb2.GetOutboundStatusRequest(), timeout=5)
    for s in response.status.status:
        print(json.dumps({
            "outbound_tag": s.outbound_tag, "alive": s.alive, "delay": s.delay,
            "last_error_reason": s.last_error_reason, "last_seen_time": s.last_seen_time,
            "last_try_time": s.last_try_time,
            "health_ping": None if not s.HasField("health_ping") else {
                "all": s.health_ping.all, "fail": s.health_ping.fail, "average": s.health_ping.average},
        }, sort_keys=True))


if __name__ == "__main__":
    main()
