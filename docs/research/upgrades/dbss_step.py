"""Writer/reader step for google-adk DatabaseSessionService upgrade measurements.

usage: python dbss_step.py write|read DB_PATH_OR_URL
  write: create session s1 (state k=v) + append one user event
  read:  get s1 (count events), create s2, append an event to s2, get s2
A bare path becomes sqlite:///PATH (<=1.18, sync engine) or sqlite+aiosqlite:///PATH
(>=1.19, async engine). A URL is used as given, except that the driver is swapped
the same way (postgresql:// <-> postgresql+asyncpg://).
Prints one line per step: STEP ok ... | STEP ERROR <Type>: <first line>.
"""
import asyncio
import importlib.metadata as md
import inspect
import logging
import os
import sys
import warnings

warnings.simplefilter("ignore")
logging.disable(logging.CRITICAL)

from google.adk.sessions import database_session_service as dss  # noqa: E402
from google.adk.events import Event  # noqa: E402
from google.genai import types  # noqa: E402

_SERVICES = []
VERSION = md.version("google-adk")
ASYNC = "create_async_engine" in inspect.getsource(dss)


def url_for(arg: str) -> str:
  if "://" not in arg:
    return ("sqlite+aiosqlite:///" if ASYNC else "sqlite:///") + arg
  scheme, rest = arg.split("://", 1)
  base = scheme.split("+")[0]
  drv = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}.get(base)
  if ASYNC and drv:
    return f"{base}+{drv}://{rest}"
  return f"{base}://{rest}"


async def call(x):
  return await x if inspect.isawaitable(x) else x


def err(e: BaseException) -> str:
  text = str(e).strip().splitlines()[0] if str(e).strip() else ""
  return f"{type(e).__module__}.{type(e).__name__}: {text}"


def event(text: str) -> Event:
  return Event(
      author="user",
      invocation_id="inv-" + text,
      content=types.Content(role="user", parts=[types.Part(text=text)]),
  )


async def main(mode: str, arg: str) -> int:
  url = url_for(arg)
  print(f"google-adk {VERSION} ({'async' if ASYNC else 'sync'} engine) {mode} {url}")
  try:
    svc = dss.DatabaseSessionService(url)
    _SERVICES.append(svc)
  except Exception as e:  # noqa: BLE001
    print(f"init ERROR {err(e)}")
    return 1
  kw = dict(app_name="app", user_id="u")
  bad = 0
  if mode == "write":
    s = await call(svc.create_session(**kw, session_id="s1", state={"k": "v"}))
    await call(svc.append_event(s, event("hello-from-" + VERSION)))
    g = await call(svc.get_session(**kw, session_id="s1"))
    print(f"write ok events={len(g.events)} state={g.state}")
    return 0
  steps = []

  async def get_s1():
    g = await call(svc.get_session(**kw, session_id="s1"))
    if g is None:
      return "s1 missing"
    return f"events={len(g.events)} text={g.events[0].content.parts[0].text if g.events else None!r} state={g.state}"

  holder = {}

  async def create_s2():
    holder["s"] = await call(svc.create_session(**kw, session_id="s2"))
    return "created"

  async def append_s2():
    await call(svc.append_event(holder["s"], event("hello-from-" + VERSION)))
    return "appended"

  async def get_s2():
    g = await call(svc.get_session(**kw, session_id="s2"))
    return f"events={len(g.events)}"

  for name, fn in [("get_s1", get_s1), ("create_s2", create_s2),
                   ("append_s2", append_s2), ("get_s2", get_s2)]:
    if name in ("append_s2", "get_s2") and "s" not in holder:
      print(f"{name} skipped")
      continue
    try:
      print(f"{name} ok {await fn()}")
    except Exception as e:  # noqa: BLE001
      bad += 1
      print(f"{name} ERROR {err(e)}")
  return 1 if bad else 0


async def run_and_dispose(mode, arg):
  try:
    return await main(mode, arg)
  finally:
    # aiosqlite >= 0.22 runs a non-daemon thread per connection: without dispose() the
    # interpreter waits for it forever at exit (google-adk 1.22+ environments).
    for obj in list(globals().get("_SERVICES", [])):
      eng = getattr(obj, "db_engine", None)
      if eng is not None and hasattr(eng, "dispose"):
        r = eng.dispose()
        if inspect.isawaitable(r):
          await r


if __name__ == "__main__":
  rc = asyncio.run(run_and_dispose(sys.argv[1], sys.argv[2]))
  sys.stdout.flush()
  os._exit(rc)
