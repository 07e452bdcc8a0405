import { JOB_TYPES, type JobType, type TargetList, type TargetListUpload } from '@crawl/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { Pager } from '../components/pager.tsx';
import { ProjectTabs } from '../components/project-tabs.tsx';
import { when } from '../format/dates.ts';
import { uploadCountsText } from '../format/delivery-words.ts';
import { JOB_TYPE_INFO } from '../format/job-types.ts';
import { listNameOf, rejectedLineText, rejectedMoreText, uploadFormatOf } from '../format/target-list-words.ts';

const PAGE = 20;
/** Refused lines shown under an upload; the counts cover all of them. */
const REJECTED_SHOWN = 20;

/** A project's target lists: uploaded once (checked and de-duplicated by the API), then used by jobs. */
export function TargetListsPage({ projectId }: { projectId: string }) {
  return (
    <section>
      <ProjectTabs projectId={projectId} />
      <PageTitle title="Target lists">Target lists</PageTitle>
      <TargetListsCard projectId={projectId} />
    </section>
  );
}

function TargetListsCard({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const [offset, setOffset] = useState(0);
  const lists = useQuery({
    queryKey: ['target-lists', projectId, offset],
    queryFn: () => api.targetLists.list(projectId, { limit: PAGE, offset }),
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['target-lists', projectId] });
  return (
    <article class="card" aria-labelledby="target-lists-title">
      <h2 id="target-lists-title">Target lists</h2>
      <p class="muted">
        Up to 100,000 ASINs, product URLs or keywords in a text file (one a line) or a CSV (the column named target, asin, keyword or url, else the first). Each
        line is checked as a job's targets are; duplicates are dropped.
      </p>
      <UploadForm projectId={projectId} onUploaded={invalidate} />
      <h3>Lists of this project</h3>
      <ErrorNote error={lists.error} />
      {lists.data?.meta.total === 0 ? <p>No target lists yet.</p> : null}
      <ul class="plain" data-testid="target-lists">
        {lists.data?.data.map((list) => (
          <ListRow key={list.id} projectId={projectId} list={list} onChanged={invalidate} />
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} count={lists.data?.data.length ?? 0} total={lists.data?.meta.total} onChange={setOffset} />
    </article>
  );
}

function UploadForm({ projectId, onUploaded }: { projectId: string; onUploaded: () => void }) {
  const [type, setType] = useState<JobType>('details');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<TargetListUpload | null>(null);
  const upload = useMutation({
    mutationFn: async (chosen: File) => {
      // Bytes, not a stream: browsers send a streamed body only over HTTP/2, and a list is at most 16 MiB.
      const body = new Uint8Array(await chosen.arrayBuffer());
      return api.targetLists.upload(projectId, { type, name: name.trim() || listNameOf(chosen.name) }, body, { format: uploadFormatOf(chosen) });
    },
    onSuccess: (result) => {
      setAnswer(result);
      onUploaded();
    },
  });
  return (
    <form
      class="upload-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (file) upload.mutate(file);
      }}
    >
      <div class="row">
        <label>
          File (.txt or .csv)
          <input
            type="file"
            name="list"
            accept=".txt,.csv,text/plain,text/csv"
            required
            onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        </label>
        <label>
          Job type
          <select name="type" value={type} onChange={(event) => setType((event.currentTarget as HTMLSelectElement).value as JobType)}>
            {JOB_TYPES.map((each) => (
              <option key={each} value={each}>
                {JOB_TYPE_INFO[each].name} — {JOB_TYPE_INFO[each].targets}
              </option>
            ))}
          </select>
        </label>
        <label>
          List name
          <input
            name="name"
            maxLength={120}
            placeholder={file ? listNameOf(file.name) : 'the file name'}
            value={name}
            onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
      </div>
      <button type="submit" disabled={!file || upload.isPending}>
        {upload.isPending ? 'Uploading…' : 'Upload list'}
      </button>
      <ErrorNote error={upload.error} />
      {answer ? <UploadAnswer answer={answer} /> : null}
    </form>
  );
}

function UploadAnswer({ answer }: { answer: TargetListUpload }) {
  const shown = answer.rejectedLines.slice(0, REJECTED_SHOWN);
  const more = rejectedMoreText(answer.list.counts.rejected, shown.length);
  return (
    <div role="status" class="upload-answer">
      <p>
        <strong>{answer.list.name}</strong>: <span data-testid="upload-counts">{uploadCountsText(answer)}</span>
      </p>
      {shown.length > 0 ? (
        <>
          <p>Refused lines:</p>
          <ul class="plain" data-testid="rejected-lines">
            {shown.map((rejected) => (
              <li key={rejected.line}>
                <code>{rejectedLineText(rejected)}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {more ? <p class="muted">{more}</p> : null}
    </div>
  );
}

function ListRow({ projectId, list, onChanged }: { projectId: string; list: TargetList; onChanged: () => void }) {
  const [, navigate] = useLocation();
  const remove = useMutation({ mutationFn: () => api.targetLists.delete(list.id), onSuccess: onChanged });
  return (
    <li class="target-list">
      <p>
        <strong>{list.name}</strong>{' '}
        <span class="muted">
          {JOB_TYPE_INFO[list.type].name} · {list.counts.accepted.toLocaleString('en-US')} targets
        </span>
      </p>
      <p class="muted">
        {uploadCountsText({ list })} · uploaded {when(list.createdAt)}
      </p>
      <div class="actions">
        <button
          type="button"
          aria-label={`New job from the list ${list.name}`}
          onClick={() => navigate(`/projects/${projectId}/jobs?list=${encodeURIComponent(list.id)}`)}
        >
          New job from this list
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`Delete the list ${list.name}`}
          onClick={() => {
            if (confirm(`Delete the list ${list.name}? Jobs already created from it keep their targets.`)) remove.mutate();
          }}
        >
          Delete
        </button>
      </div>
      <ErrorNote error={remove.error} />
    </li>
  );
}
