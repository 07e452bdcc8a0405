import type { CreateDestinationBody, DestinationFormat } from '@crawl/contracts';

const FORMATS: readonly DestinationFormat[] = ['ndjson', 'csv', 'json'];

/** The S3 destination form. The secret is sent once and never read back, so the form is cleared after a create. */
export function DestinationForm({ busy, onSubmit }: { busy: boolean; onSubmit: (body: CreateDestinationBody, form: HTMLFormElement) => void }) {
  return (
    <form
      class="destination-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget as HTMLFormElement;
        onSubmit(destinationBodyOf(new FormData(form)), form);
      }}
    >
      <div class="row">
        <label>
          Name
          <input name="name" maxLength={100} placeholder="Results bucket" />
        </label>
        <label>
          Bucket
          <input name="bucket" required minLength={3} maxLength={63} placeholder="acme-crawl-results" />
        </label>
        <label>
          Prefix
          <input name="prefix" maxLength={512} placeholder="crawl/amazon" />
        </label>
      </div>
      <div class="row">
        <label>
          Region
          <input name="region" required defaultValue="us-east-1" />
        </label>
        <label>
          Endpoint (S3-compatible stores; empty for AWS)
          <input name="endpoint" type="url" placeholder="https://<account>.r2.cloudflarestorage.com" />
        </label>
      </div>
      <div class="row">
        <label>
          Access key id
          <input name="accessKeyId" required autoComplete="off" />
        </label>
        <label>
          Secret access key
          <input name="secretAccessKey" type="password" required autoComplete="new-password" aria-describedby="secret-note" />
          <span id="secret-note" class="muted">
            Stored encrypted and never shown again.
          </span>
        </label>
      </div>
      <div class="row">
        <label>
          Format
          <select name="format" defaultValue="ndjson">
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        <label class="checkbox">
          <input type="checkbox" name="gzip" defaultChecked /> Gzip every part
        </label>
      </div>
      <button type="submit" disabled={busy}>
        Add destination
      </button>
    </form>
  );
}

/** The create body from the form's fields: optional fields left out when empty. */
export function destinationBodyOf(data: FormData): CreateDestinationBody {
  const text = (key: string) => String(data.get(key) ?? '').trim();
  const optional = (key: 'name' | 'prefix' | 'endpoint') => (text(key) ? { [key]: text(key) } : {});
  return {
    type: 's3',
    bucket: text('bucket'),
    region: text('region'),
    accessKeyId: text('accessKeyId'),
    secretAccessKey: String(data.get('secretAccessKey') ?? ''),
    format: (text('format') || 'ndjson') as DestinationFormat,
    gzip: data.get('gzip') !== null,
    ...optional('name'),
    ...optional('prefix'),
    ...optional('endpoint'),
  };
}
