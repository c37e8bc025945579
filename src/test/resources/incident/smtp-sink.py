#!/usr/bin/python3
"""A real SMTP server for the notification tests, on Debian's aiosmtpd: listens on 127.0.0.1:PORT and writes each
message it accepts, as received, to DIR/<n>.eml (the envelope's sender and recipients in DIR/<n>.envelope).

With --cert and --key it offers STARTTLS and requires it before anything else; with --user and --password it
requires that login (AUTH PLAIN or LOGIN, only over TLS). A recipient nobody@<anything> is refused for good (550).
Stops on SIGTERM.
"""
import argparse
import pathlib
import signal
import ssl
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


class Sink:
    def __init__(self, directory):
        self.directory = pathlib.Path(directory)
        self.count = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("nobody@"):
            return "550 5.1.1 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.count += 1
            number = self.count
        (self.directory / f"{number}.envelope").write_text(
            envelope.mail_from + "\n" + "\n".join(envelope.rcpt_tos) + "\n")
        temporary = self.directory / f"{number}.eml.part"
        temporary.write_bytes(envelope.original_content)
        temporary.rename(self.directory / f"{number}.eml")
        return "250 OK"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("directory")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--user")
    parser.add_argument("--password")
    args = parser.parse_args()

    options = {}
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
        options.update(tls_context=context, require_starttls=True)
    if args.user:
        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (isinstance(auth_data, LoginPassword)
                  and auth_data.login.decode() == args.user
                  and auth_data.password.decode() == args.password)
            return AuthResult(success=ok)
        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.cert))

    controller = Controller(Sink(args.directory), hostname="127.0.0.1", port=args.port, **options)
    controller.start()
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    stopped.wait()
    controller.stop()


if __name__ == "__main__":
    main()
