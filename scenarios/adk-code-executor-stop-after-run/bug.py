"""adk-code-executor-stop-after-run: what the harness needs beside repro.py (the bug itself is there)."""

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Claim, Edge, Explanation, Release

PINNED = AsInstalled("the pinned release judges emptiness before the code execution processor clears the reply")
LAST_CLEARED_READ_AS_EMPTY = Release(
    "google-adk==2.8.0", "the last release whose empty-STOP guard reads the executor's cleared reply as empty"
)
BEFORE_THE_GUARD = Release("google-adk==2.3.0", "the last release without the empty-STOP guard of #5631")


def _no_second_answer(obs):
    obs.facts.update(model_calls=2, saw_result=True, last_text="text 'something else'")


def _executor_ran_without_code(obs):
    obs.facts.update(executed=1, errors=[])


BUG = Bug(
    explanations=(
        Explanation(
            "code-then-answer",
            ">=1.20.0,<1.22.0",
            "Another bug of 1.20-1.21: the turn goes on to a second model call, but that request leaves out "
            "the code and its result, because contents.py's new _contains_empty_content counts an event of "
            "executable-code and code-result parts as empty and drops it from the history (explain, 1.19.0 -> "
            "1.20.0); 1.22.0's _should_include_event_in_context keeps such events again.",
        ),
    ),
    links=(
        "https://github.com/google/adk-python/issues/7002",
        "https://github.com/google/adk-python/pull/7003",
        "https://github.com/google/adk-python/issues/5631",
    ),
    description=(
        "With a (non-built-in) code executor, a model reply holding a fenced python block with "
        "finish_reason=STOP is executed, but the empty-STOP guard added for #5631 then reads the reply "
        "the code execution processor cleared (its signal to call the model again) as empty, and the "
        "invocation ends with MODEL_RETURNED_NO_CONTENT before the model sees the result."
    ),
    expected="A second model call receives the execution result and produces the final answer.",
    range_notes=(
        "empty-stop is the non-regression: a model reply that really is empty still ends with "
        "MODEL_RETURNED_NO_CONTENT. The releases before the #5631 guard pass such a reply over silently, "
        "so that case says reproduced there: the behaviour a fix that went too far would bring back.",
    ),
    claims=Claim(
        pr="#7003",
        pr_state="closed",
        quote="mistakes that internal continuation sentinel for a provider-empty response",
        source="#7002: reported on 2.7.0, 2.8.0 and main (2026-09-03); issue closed; PR #7003 thread "
        "('fix(flows): preserve code execution continuation', Closes: #7002) shown closed, no merge shown",
    ),
    cases={
        "code-then-answer": CaseRole(
            "the model's first reply is a python block (STOP), its second the answer",
            reproduced=LAST_CLEARED_READ_AS_EMPTY,
            fixed=PINNED,
            edges=(Edge("unexpected", "a second model call, but another answer", _no_second_answer, PINNED),),
        ),
        "empty-stop": CaseRole(
            "the model's first reply has no parts (STOP): still reported as MODEL_RETURNED_NO_CONTENT",
            reproduced=BEFORE_THE_GUARD,
            fixed=PINNED,
            non_regression=True,
            edges=(Edge("unexpected", "the executor ran, the reply held no code", _executor_ran_without_code, PINNED),),
        ),
    },
)
