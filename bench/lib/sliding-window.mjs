/**
 * A provider's cap per sliding second, as the bench servers enforce it: `admit(now)` is
 * true while fewer than `cap` calls were admitted in the last 1,000 ms (a ring of their
 * times), false beyond (a refusal does not count against the window). Cap 0: no cap.
 * `armed()` false admits everything (a set-up phase run uncapped).
 */
export function slidingWindow(cap, armed = () => true) {
  const ring = new Float64Array(Math.max(1, cap));
  let oldest = 0;
  let count = 0;
  return (now) => {
    if (cap === 0 || !armed()) return true;
    while (count > 0 && now - ring[oldest] >= 1_000) {
      oldest = (oldest + 1) % cap;
      count--;
    }
    if (count >= cap) return false;
    ring[(oldest + count) % cap] = now;
    count++;
    return true;
  };
}
