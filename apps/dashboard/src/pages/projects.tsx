import type { Project } from '@crawl/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { Pager } from '../components/pager.tsx';

const PAGE = 20;

/** Projects: list (active or archived), create, rename, archive and unarchive. */
export function ProjectsPage() {
  const queryClient = useQueryClient();
  const [archived, setArchived] = useState(false);
  const [offset, setOffset] = useState(0);
  const list = useQuery({ queryKey: ['projects', { archived, offset }], queryFn: () => api.projects.list({ archived, limit: PAGE, offset }) });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['projects'] });
  const create = useMutation({ mutationFn: (name: string) => api.projects.create({ name }), onSuccess: invalidate });

  return (
    <section>
      <PageTitle title="Projects">Projects</PageTitle>
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget as HTMLFormElement;
          const name = String(new FormData(form).get('name') ?? '').trim();
          create.mutate(name, { onSuccess: () => form.reset() });
        }}
      >
        <label>
          New project name
          <input name="name" required maxLength={100} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create project
        </button>
      </form>
      <ErrorNote error={create.error} />
      <fieldset class="filter">
        <legend>Show</legend>
        <label class="radio">
          <input
            type="radio"
            name="archived"
            checked={!archived}
            onChange={() => {
              setArchived(false);
              setOffset(0);
            }}
          />
          Active
        </label>
        <label class="radio">
          <input
            type="radio"
            name="archived"
            checked={archived}
            onChange={() => {
              setArchived(true);
              setOffset(0);
            }}
          />
          Archived
        </label>
      </fieldset>
      <ErrorNote error={list.error} />
      {list.data && list.data.length === 0 ? <p>{archived ? 'No archived projects.' : 'No projects yet: create one above.'}</p> : null}
      <ul class="cards">
        {list.data?.map((project) => (
          <ProjectCard key={project.id} project={project} onChanged={invalidate} />
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} count={list.data?.length ?? 0} onChange={setOffset} />
    </section>
  );
}

function ProjectCard({ project, onChanged }: { project: Project; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const update = useMutation({
    mutationFn: (body: { name?: string; archived?: boolean }) => api.projects.update(project.id, body),
    onSuccess: () => {
      setEditing(false);
      onChanged();
    },
  });
  return (
    <li class="card project">
      {editing ? (
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            update.mutate({ name: String(new FormData(event.currentTarget as HTMLFormElement).get('name') ?? '').trim() });
          }}
        >
          <label>
            Name
            <input name="name" defaultValue={project.name} required maxLength={100} />
          </label>
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <h2>
          <Link href={`/projects/${project.id}/jobs`}>{project.name}</Link>
          {project.archived ? <span class="badge">archived</span> : null}
        </h2>
      )}
      <p class="muted">Created {new Date(project.createdAt).toLocaleDateString()}</p>
      <div class="actions">
        <Link href={`/projects/${project.id}/jobs`}>Jobs</Link>
        <Link href={`/projects/${project.id}/schedules`}>Schedules</Link>
        <Link href={`/projects/${project.id}/webhooks`}>Webhooks</Link>
        {editing ? null : (
          <button type="button" class="secondary" onClick={() => setEditing(true)} aria-label={`Rename ${project.name}`}>
            Rename
          </button>
        )}
        <button
          type="button"
          class="secondary"
          onClick={() => update.mutate({ archived: !project.archived })}
          aria-label={`${project.archived ? 'Unarchive' : 'Archive'} ${project.name}`}
        >
          {project.archived ? 'Unarchive' : 'Archive'}
        </button>
      </div>
      <ErrorNote error={update.error} />
    </li>
  );
}
