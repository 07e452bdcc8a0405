/** A comma-separated setting (`a, b,,c`) as its trimmed, non-empty items. */
export function commaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}
