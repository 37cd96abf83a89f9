"""What each scenario's upstream thread claims about its releases, as the scenario's docstring or
seed already states it (harness/runtime/scenario.py ``Claim``): fixed in which release, by which
PR, introduced in which release, still open. The reports set the claim beside what the record
measured (harness/rendering/claims.py) and the run's summary lists where they disagree.

Kept here, not in the scenario modules: a scenario module's bytes are its code's digest
(harness/store/result_cache.py ``scenario_inputs``), and declaring a claim there would make every
bisect probe and record result of the scenario stale. A scenario whose docstring states no claim
of the thread has no entry (``Claim()``, shown as "nothing this repository records"); no entry
is inferred from the harness's own measurements.
"""

from __future__ import annotations

from harness.runtime.scenario import Claim

CLAIMS: dict[str, Claim] = {
}
