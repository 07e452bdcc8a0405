import { AUDIT_ACTIONS } from '@crawl/contracts';
import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { api } from '../api/client.ts';
import { ErrorNote } from '../components/error-note.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { Pager } from '../components/pager.tsx';
import { when } from '../format/dates.ts';

const PAGE = 25;

/** The organization's audit log, newest first, filtered by action and paged. */
export function AuditPage() {
  const [action, setAction] = useState('');
  const [offset, setOffset] = useState(0);
  const events = useQuery({ queryKey: ['audit', action, offset], queryFn: () => api.audit.list({ limit: PAGE, offset, ...(action ? { action } : {}) }) });
  return (
    <section>
      <PageTitle title="Audit log">Audit log</PageTitle>
      <label class="inline">
        Action
        <select
          value={action}
          onChange={(event) => {
            setAction((event.currentTarget as HTMLSelectElement).value);
            setOffset(0);
          }}
        >
          <option value="">all</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote error={events.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">Resource</th>
              <th scope="col">By</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {events.data?.data.map((event) => (
              <tr key={event.id} data-testid="audit-event">
                <td>{when(event.createdAt)}</td>
                <td>
                  <code>{event.action}</code>
                </td>
                <td>
                  {event.resourceType} <code>{event.resourceId}</code>
                </td>
                <td>
                  <code>{event.actorUserId}</code>
                </td>
                <td>
                  <code>{Object.keys(event.metadata).length ? JSON.stringify(event.metadata) : ''}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {events.data?.data.length === 0 ? <p>No events{action ? ` for ${action}` : ''}.</p> : null}
      <Pager offset={offset} limit={PAGE} count={events.data?.data.length ?? 0} total={events.data?.meta.total} onChange={setOffset} />
    </section>
  );
}
