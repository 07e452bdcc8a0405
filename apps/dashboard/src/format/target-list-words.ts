import { CREDITS_PER_TARGET, type JobConfig, type JobType, type RejectedLine, type TargetList, unitsPerTarget } from '@crawl/contracts';

/** How a file is sent: CSV (the API picks the target column) for `.csv` files, else one target a line. */
export function uploadFormatOf(file: { name: string; type: string }): 'csv' | 'text' {
  return file.type === 'text/csv' || /\.csv$/i.test(file.name) ? 'csv' : 'text';
}

/** A list's default name: the file's name without its extension. */
export function listNameOf(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '').trim() || 'Targets';
}

/** A refused line as shown under an upload: `line 4: not-an-asin — not an ASIN or product URL`. */
export function rejectedLineText(rejected: RejectedLine): string {
  return `line ${rejected.line}: ${rejected.value} — ${rejected.reason}`;
}

/** The refused lines listed, and how many more the counts hold than the answer lists. */
export function rejectedMoreText(rejectedCount: number, listed: number): string | null {
  const more = rejectedCount - listed;
  return more > 0 ? `and ${more.toLocaleString('en-US')} more refused line${more === 1 ? '' : 's'} not listed` : null;
}

/** A list as the job form shows it in place of the targets: `ASINs (details) · 1,204 targets`. */
export function listChoiceText(list: Pick<TargetList, 'name' | 'type' | 'counts'>): string {
  const count = list.counts.accepted;
  return `${list.name} (${list.type}) · ${count.toLocaleString('en-US')} target${count === 1 ? '' : 's'}`;
}

/** What a job over a list reserves: the list's targets are distinct already, so it is its count × the type's price × units. */
export function listJobCost(type: JobType, list: Pick<TargetList, 'counts'>, config: JobConfig = {}): number {
  return list.counts.accepted * CREDITS_PER_TARGET[type] * unitsPerTarget(type, config);
}
