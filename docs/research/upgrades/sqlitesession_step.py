"""openai-agents SQLiteSession file across releases. usage: write|read FILE"""
import asyncio, importlib.metadata as md, sqlite3, sys
from agents.memory import SQLiteSession
V = md.version("openai-agents")
async def main(mode, path):
  s = SQLiteSession("s1", path)
  if mode == "write":
    await s.add_items([{"role": "user", "content": f"u{i}"} for i in range(3)])
    print(f"{V} write ok items={len(await s.get_items())}")
    return 0
  try:
    items = await s.get_items()
    print(f"{V} get_items ok {[i['content'] for i in items]}")
    await s.add_items([{"role": "assistant", "content": "a-new"}])
    popped = await s.pop_item()
    last2 = await s.get_items(limit=2)
    print(f"{V} add/pop ok popped={popped['content']} last2={[i['content'] for i in last2]}")
    idx = sqlite3.connect(path).execute("select sql from sqlite_master where type='index'").fetchall()
    print(f"indexes: {idx}")
  except Exception as e:
    print(f"{V} ERROR {type(e).__name__}: {e}"); return 1
  return 0
sys.exit(asyncio.run(main(*sys.argv[1:])))
