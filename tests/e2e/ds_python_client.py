"""The Durable Streams Python client (PyPI `durable-streams`, pinned in
tests/durable-streams/requirements.txt) against a protocol server, one scenario per run,
driven by tests/e2e/durable_streams_python.test.mjs:

    target/py-venv/bin/python tests/e2e/ds_python_client.py <scenario> <stream-url> <token>

Each scenario does what a Python program would do with the client and prints one JSON object
(what it observed) as its last stdout line; the node test asserts on it. Scenarios: json,
bytes, live, producer. PyPI's 0.1.0 has no IdempotentProducer class (upstream's repository has
one, unreleased), so the producer scenario sends the protocol's producer headers through the
client's own header hooks.
"""

import base64
import json
import sys
import threading

from durable_streams import DurableStream, DurableStreamError, stream

# A bound on every wait, so a scenario never hangs the test (the node side reports it).
WAIT_SECONDS = 20.0


def scenario_json(url, auth):
    handle = DurableStream.create(url, content_type="application/json", headers=auth, batching=False)
    handle.append({"n": 1, "text": "héllo"})
    handle.append({"n": 2})
    handle.append(["a list is one message"])
    with handle.stream(live=False) as res:
        items = list(res.iter_json())
    head = handle.head()
    with stream(url, offset=head.offset, live=False, headers=auth) as res:
        after_tail = list(res.iter_json())
    return {"items": items, "contentType": head.content_type, "afterTail": after_tail}


def scenario_bytes(url, auth):
    handle = DurableStream.create(url, content_type="application/octet-stream", headers=auth, batching=False)
    first = bytes(range(256))
    second = bytes((i * 7) % 256 for i in range(300))
    handle.append(first)
    handle.append(second)
    with handle.stream(live=False) as res:
        body = res.read_bytes()
    return {"sent": base64.b64encode(first + second).decode(), "read": base64.b64encode(body).decode()}


def scenario_live(url, auth):
    """Follow by long-poll, drop the connection, resume from the saved offset by SSE."""
    writer = DurableStream(url, content_type="application/json", headers=auth, batching=False)
    DurableStream.create(url, content_type="application/json", headers=auth)
    writer.append({"n": 1})

    first_session, saved = follow(url, auth, live="long-poll", offset="-1", want=2, append_when_caught_up=lambda: writer.append({"n": 2}))

    # Nobody is reading: these arrive while the reader is away.
    writer.append({"n": 3})
    writer.append({"n": 4})
    resumed, _ = follow(url, auth, live="sse", offset=saved, want=3, append_when_caught_up=lambda: writer.append({"n": 5}))
    return {"firstSession": first_session, "resumed": resumed}


def follow(url, auth, *, live, offset, want, append_when_caught_up):
    """Reads live until `want` items arrived; once caught up, `append_when_caught_up` runs on
    another thread (so its message arrives live). Closing the response drops the connection.
    Returns (items, the offset after the last item)."""
    items = []
    last_offset = offset
    appended = threading.Event()
    timer = threading.Timer(WAIT_SECONDS, lambda: res.close())
    with stream(url, offset=offset, live=live, headers=auth) as res:
        timer.start()
        try:
            for event in res.iter_events(mode="json"):  # one event per batch of messages
                items.extend(event.data)
                last_offset = event.next_offset
                if len(items) >= want:
                    break
                if event.up_to_date and not appended.is_set():
                    appended.set()
                    threading.Thread(target=append_when_caught_up).start()
        finally:
            timer.cancel()
    return items, last_offset


def scenario_producer(url, auth):
    """Idempotent producer headers (PROTOCOL §5.2.1) through the client's header hooks."""
    DurableStream.create(url, content_type="application/json", headers=auth)
    state = {"epoch": 0, "seq": 0}
    headers = {
        **auth,
        "Producer-Id": "py-producer",
        "Producer-Epoch": lambda: str(state["epoch"]),
        "Producer-Seq": lambda: str(state["seq"]),
    }
    producer = DurableStream(url, content_type="application/json", headers=headers, batching=False)
    offsets = []
    for seq in range(3):
        state["seq"] = seq
        offsets.append(producer.append({"seq": seq}).next_offset)
    state["seq"] = 1  # a retry of seq 1 after a lost response
    duplicate = append_duplicate(producer, {"seq": 1})
    state.update(epoch=1, seq=0)  # a restarted producer claims a new epoch
    producer.append({"epoch": 1})
    state.update(epoch=0, seq=3)  # the old one, a zombie, goes on
    stale = None
    try:
        producer.append({"zombie": True})
    except DurableStreamError as error:
        stale = {"type": type(error).__name__, "status": error.status}
    with DurableStream(url, headers=auth).stream(live=False) as res:
        items = list(res.iter_json())
    return {"offsets": offsets, "duplicate": duplicate, "stale": stale, "items": items}


def append_duplicate(producer, message):
    """A duplicate's 204 need not carry Stream-Next-Offset (PROTOCOL §5.2.1), but client 0.1.0
    raises ValueError on any success without it: that counts as acknowledged, offset unknown."""
    try:
        return {"acknowledged": True, "nextOffset": producer.append(message).next_offset}
    except ValueError as error:
        if "Stream-Next-Offset" not in str(error):
            raise
        return {"acknowledged": True, "nextOffset": None}


SCENARIOS = {"json": scenario_json, "bytes": scenario_bytes, "live": scenario_live, "producer": scenario_producer}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in SCENARIOS:
        print(f"usage: ds_python_client.py {{{','.join(SCENARIOS)}}} <stream-url> <token>", file=sys.stderr)
        sys.exit(2)
    scenario, url, token = sys.argv[1:]
    result = SCENARIOS[scenario](url, {"Authorization": f"Bearer {token}"})
    print(json.dumps(result))


if __name__ == "__main__":
    main()
