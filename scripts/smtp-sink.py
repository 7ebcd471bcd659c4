#!/usr/bin/env python3
"""A real SMTP server for tests (aiosmtpd): writes each message it accepts to a folder.

    smtp-sink.py --port 2525 --dir .local/mail [--reject a@x.example,b@x.example]
                 [--defer c@x.example --defer-times 2] [--delay-ms 30]

For every message it writes NAME.eml (the raw message) and then NAME.json: envelope sender and
recipients, Message-ID, Subject, and the decoded text/plain and text/html parts, parsed with
Python's email package. Files are named by arrival (nanoseconds, then a counter), so the newest
sorts last. A recipient listed in --reject gets `550 5.1.1` at RCPT; one listed in --defer gets
`451 4.3.0` at RCPT the first --defer-times times (a temporary failure). --delay-ms makes each
message take that long to be accepted (a slow relay). Prints `listening HOST:PORT`
once it accepts connections; stops on SIGTERM or SIGINT.
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import threading
import time

from aiosmtpd.controller import Controller


class Sink:
    def __init__(self, folder, reject, defer, defer_times, delay):
        self.folder = folder
        self.delay = delay
        self.reject = reject
        self.defer = defer
        self.deferred = {address: defer_times for address in defer}
        self.count = 0
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        if self.deferred.get(address.lower(), 0) > 0:
            self.deferred[address.lower()] -= 1
            return "451 4.3.0 <%s>: try again later" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.delay:
            await asyncio.sleep(self.delay)
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        text = message.get_body(preferencelist=("plain",))
        html = message.get_body(preferencelist=("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "message_id": str(message.get("Message-ID", "")),
            "subject": str(message.get("Subject", "")),
            "from": str(message.get("From", "")),
            "to": str(message.get("To", "")),
            "content_type": message.get_content_type(),
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
        }
        with self.lock:
            self.count += 1
            name = "%020d-%06d" % (time.time_ns(), self.count)
        with open(os.path.join(self.folder, name + ".eml"), "wb") as out:
            out.write(raw)
        partial = os.path.join(self.folder, "." + name + ".json")
        with open(partial, "w") as out:
            json.dump(record, out)
        os.rename(partial, os.path.join(self.folder, name + ".json"))
        return "250 Message accepted for delivery"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--reject", default="")
    parser.add_argument("--defer", default="")
    parser.add_argument("--defer-times", type=int, default=1)
    parser.add_argument("--delay-ms", type=int, default=0)
    arguments = parser.parse_args()
    os.makedirs(arguments.dir, exist_ok=True)
    reject = {address.strip().lower() for address in arguments.reject.split(",") if address.strip()}
    defer = {address.strip().lower() for address in arguments.defer.split(",") if address.strip()}
    sink = Sink(arguments.dir, reject, defer, arguments.defer_times, arguments.delay_ms / 1000)
    controller = Controller(sink, hostname=arguments.host, port=arguments.port)
    controller.start()
    print("listening %s:%d" % (arguments.host, arguments.port), flush=True)
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    stopped.wait()
    controller.stop()


if __name__ == "__main__":
    main()
