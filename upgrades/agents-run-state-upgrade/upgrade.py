"""agents-run-state-upgrade: what the harness needs beside repro.py (the upgrade itself is there)."""

from harness.runtime.upgrade import Claim, Pair, Step, Upgrade, UpgradeCase

UPGRADE = Upgrade(
    links=(
        "https://github.com/openai/openai-agents-python/pull/2502",
        "https://github.com/openai/openai-agents-python/pull/2632",
    ),
    description=(
        "A human-in-the-loop run pauses when the model calls a tool declared needs_approval=True; the application "
        "saves it with result.to_state().to_string() and resumes it later with RunState.from_string(agent, text), "
        "approve() and Runner.run(agent, state). The snapshot carries a $schemaVersion that moves with the releases "
        "(0.8.x 1.0, 0.9.3 1.2, 0.10.5 1.4, 0.11.1 1.5, 0.12/0.13 1.6, 0.14/0.15 1.9, ... 0.23.1 1.18, 0.24.0 1.21). "
        "The maintainers' policy (#2502, #2632): every schema version shipped in a release stays readable by the "
        "newer ones, and an older release refuses a newer snapshot on purpose (forward compatibility fail-fast): "
        "0.8.4 raises 'UserError: Run state schema version 1.2 is not supported. Please use version 1.0' on what "
        "0.9.3 wrote. No user thread reports a forward upgrade that loses a paused run."
    ),
    expected=(
        "A release restores the run an older release paused, the approved tool runs once with its argument and the "
        "run ends with the model's answer; an older release refuses a newer snapshot with a clear error."
    ),
    requires=("openai-agents",),
    cases={
        "resume-approval": UpgradeCase(
            "the writer's run paused on approve_me(x=7): the reader restores it, approves the call and resumes; "
            "the tool runs once with x=7 and the final output is the scripted answer"
        ),
    },
    releases=(
        "0.8.0",
        "0.8.4",
        "0.9.3",
        "0.10.5",
        "0.11.1",
        "0.12.5",
        "0.13.6",
        "0.14.8",
        "0.15.3",
        "0.16.1",
        "0.17.8",
        "0.18.3",
        "0.19.4",
        "0.20.0",
        "0.21.1",
        "0.22.3",
        "0.23.1",
        "0.24.0",
    ),
    pairs=(
        Pair(
            "0.8.0", "0.24.0", why="#2502: newer releases read older snapshots; the oldest (1.0) on the newest (1.21)"
        ),
        Pair(
            "0.13.6",
            "0.14.8",
            why="#2632: schema 1.6 renumbered before release (now the 0.12/0.13 snapshots), read by 1.9",
        ),
    ),
    downgrades=(
        Pair(
            "0.9.3",
            "0.8.4",
            why="#2502: forward compatibility fail-fast; 0.8.x reads only its own schema 1.0",
            documented_refusal="#2502: an older release refuses a newer snapshot on purpose (fail fast)",
        ),
        Pair(
            "0.24.0",
            "0.23.1",
            why="#2502: the newest snapshot (1.21) on the release before (reads up to 1.18)",
            documented_refusal="#2502: an older release refuses a newer snapshot on purpose (fail fast)",
        ),
    ),
    proofs=(
        Step("resume-approval", "0.9.3", "0.8.4", "reproduced"),
        Step("resume-approval", "0.24.0", "0.23.1", "reproduced"),
        Step("resume-approval", "0.8.0", "0.24.0", "fixed"),
        Step("resume-approval", "0.13.6", "0.14.8", "fixed"),
        Step("resume-approval", "0.23.1", "0.24.0", "fixed"),
    ),
    schema_files=("agents/run_state.py",),
    # The snapshot's version a release writes and those it reads (CURRENT_SCHEMA_VERSION, SUPPORTED_...).
    schema_markers=(r"SCHEMA_VERSION",),
    claims=Claim(source="#2502: newer releases read older RunState snapshots; older ones fail fast"),
)
