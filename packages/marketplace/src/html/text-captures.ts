/**
 * Text collection for the elements currently being read. Text outside any capture is dropped
 * without being copied, which is what keeps a streaming pass cheap on text-heavy pages.
 */
export class TextCaptures {
  private active: string[][] = [];

  begin(): string[] {
    const parts: string[] = [];
    this.active.push(parts);
    return parts;
  }

  /** Stops collecting into `parts` and returns what was collected. */
  end(parts: string[]): string {
    const i = this.active.lastIndexOf(parts);
    if (i !== -1) this.active.splice(i, 1);
    return parts.join('');
  }

  text(text: string): void {
    const active = this.active;
    for (let i = 0; i < active.length; i++) (active[i] as string[]).push(text);
  }
}
