/**
 * Rate limits count in fixed 60-second windows (as Firecrawl's do). A test that makes a few calls
 * and expects the last one refused must not straddle a window's end, or the counter starts again
 * in the middle: this waits, when needed, until the current window has `seconds` left.
 */
export async function awaitFreshRateWindow(seconds = 30): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
