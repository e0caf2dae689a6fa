/**
 * Test-only fault points: `SWITCHBOARD_FAULT_<NAME>=exit` kills this process at once (SIGKILL, as
 * `kill -9`) when it reaches the named point, so the fault suite (tests/faults/) can stop a process
 * at a moment no outside signal hits reliably. Unset — always, outside that suite — it does nothing.
 *
 * AFTER_DECISION: an approval's decision has committed; the call has not been started.
 */
export function faultPoint(name: "AFTER_DECISION"): void {
  if (process.env[`SWITCHBOARD_FAULT_${name}`] === "exit") process.kill(process.pid, "SIGKILL");
}
