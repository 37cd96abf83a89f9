"""adk-retry-same-invocation-id: what the harness needs beside repro.py."""

import contextlib

from harness.runtime.declaration import AsInstalled, Bug, CaseRole, Edge, InProcess, Release


@contextlib.contextmanager
def _seed_guard():
    """The pinned release's ``Runner._handle_new_message`` (private) with the seed PR's guard."""
    from google.adk.runners import Runner

    async def _handle_new_message(self, *, new_message, invocation_context, run_config, state_delta):
        is_function_response = bool(new_message.parts and any(p.function_response for p in new_message.parts))
        modified = await invocation_context.plugin_manager.run_on_user_message_callback(
            invocation_context=invocation_context, user_message=new_message
        )
        if modified is not None:
            new_message = modified
            invocation_context.user_content = new_message
        # The seed PR compares the post-callback content: what actually gets persisted.
        if not is_function_response and any(  # same invocation, same content, same state_delta
            e.author == "user"
            and e.invocation_id == invocation_context.invocation_id
            and e.content == new_message
            and (e.actions.state_delta or {}) == (state_delta or {})
            for e in invocation_context.session.events
        ):
            return
        await self._append_new_message_to_session(
            session=invocation_context.session,
            new_message=new_message,
            invocation_context=invocation_context,
            state_delta=state_delta,
        )

    original = Runner._handle_new_message
    Runner._handle_new_message = _handle_new_message
    try:
        yield
    finally:
        Runner._handle_new_message = original


UNGUARDED_RELEASE = Release(
    "google-adk==2.8.0",
    "the last release before 2.9.0's invocation guard (Runner._find_user_message_for_invocation): "
    "every delivery is appended",
)
SEED_GUARD = InProcess(
    "the seed PR's guard (#6685): skip only an identical message with an identical state_delta", _seed_guard
)
INVOCATION_ONLY_GUARD = AsInstalled("the pinned release skips any message for an invocation that already has one")

BUG = Bug(
    links=(
        "https://github.com/google/adk-python/issues/4506",
        "https://github.com/google/adk-python/pull/6685",
        "https://github.com/google/adk-python/pull/4526",
    ),
    description=(
        "Calling run_async again with the same invocation_id and the same new_message "
        "(a resume, or a task queue's retry) records the user turn twice."
    ),
    expected=(
        "The user turn is recorded once; a retry carrying a new state_delta or different text is still recorded."
    ),
    cases={
        "resumable-resume": CaseRole(
            "resumable App: run, then run_async again with the same invocation_id and message",
            reproduced=UNGUARDED_RELEASE,
            fixed=SEED_GUARD,
        ),
        "non-resumable-retry": CaseRole(
            "plain app: run_async twice with the caller's invocation_id and the same message",
            reproduced=UNGUARDED_RELEASE,
            fixed=SEED_GUARD,
        ),
        "retry-new-state-delta": CaseRole(
            "the retry carries a state_delta: it must be persisted",
            reproduced=INVOCATION_ONLY_GUARD,
            fixed=SEED_GUARD,
            non_regression=True,
            edges=(
                Edge(
                    "unexpected",
                    "the retry is recorded but its state_delta is not persisted",
                    lambda obs: obs.facts.update(delta_persisted=False),
                    SEED_GUARD,
                ),
                Edge(
                    "unexpected",
                    "three user events: the retry recorded twice",
                    lambda obs: obs.facts["user_texts"].append(obs.facts["user_texts"][-1]),
                    SEED_GUARD,
                ),
            ),
        ),
        "retry-different-message": CaseRole(
            "the retry carries different text under the same id: it must be recorded",
            reproduced=INVOCATION_ONLY_GUARD,
            fixed=SEED_GUARD,
            non_regression=True,
        ),
    },
)
