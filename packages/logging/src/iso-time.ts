let formattedAt = -1;
let formatted = '';

/**
 * Pino's `isoTime` (`,"time":"2026-11-23T00:00:00.000Z"`), formatted once per millisecond: a busy
 * process writes several lines in the same one, and each formatting allocated a Date and a string.
 */
export function isoTimeOncePerMillisecond(): string {
  const now = Date.now();
  if (now !== formattedAt) {
    formattedAt = now;
    formatted = `,"time":"${new Date(now).toISOString()}"`;
  }
  return formatted;
}
