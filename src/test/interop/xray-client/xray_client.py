#!/usr/bin/python3
"""Minimal Xray API client: calls ObservatoryService.GetOutboundStatus and prints the statuses as JSON lines.

Usage: xray_client.py HOST:PORT
Stubs are generated at run time from xray_observatory.proto (next to this file) with grpc_tools.
"""
import importlib
import json
import os
import shutil
import sys
import tempfile

from grpc_tools import protoc
import grpc


def load_stubs(out):
    here = os.path.dirname(os.path.abspath(__file__))
    code = protoc.main(["protoc", "-I" + here, "--python_out=" + out, "--grpc_python_out=" + out,
                        os.path.join(here, "xray_observatory.proto")])
    if code != 0:
        raise SystemExit("protoc failed with exit code %d" % code)
    sys.path.insert(0, out)
    return importlib.import_module("xray_observatory_pb2"), importlib.import_module("xray_observatory_pb2_grpc")


def fetch(target):
    out = tempfile.mkdtemp(prefix="xray-client-")
    try:
        pb2, pb2_grpc = load_stubs(out)
        with grpc.insecure_channel(target) as channel:
            stub = pb2_grpc.ObservatoryServiceStub(channel)
            return stub.GetOutboundStatus(pb2.GetOutboundStatusRequest(), timeout=5)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        raise SystemExit("usage: xray_client.py HOST:PORT\n"
                         "prints one JSON object per observed outbound (Xray's OutboundStatus fields)")
    try:
        response = fetch(sys.argv[1])
    except grpc.RpcError as e:
        raise SystemExit("GetOutboundStatus on %s failed: %s %s" % (sys.argv[1], e.code().name, e.details()))
    for s in response.status.status:
        print(json.dumps({
            "outbound_tag": s.outbound_tag, "alive": s.alive, "delay": s.delay,
            "last_error_reason": s.last_error_reason, "last_seen_time": s.last_seen_time,
            "last_try_time": s.last_try_time,
            "health_ping": None if not s.HasField("health_ping") else {
                "all": s.health_ping.all, "fail": s.health_ping.fail, "deviation": s.health_ping.deviation,
                "average": s.health_ping.average, "max": s.health_ping.max, "min": s.health_ping.min},
        }, sort_keys=True))


if __name__ == "__main__":
    main()
