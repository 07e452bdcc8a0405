import { useQuery } from '@tanstack/preact-query';
import { api } from '../api/client.ts';
import { destinationWhere } from '../format/delivery-words.ts';

/** A select of the project's destinations; empty means the results stay only in the API. */
export function DestinationPicker({ projectId, value, onChange }: { projectId: string; value: string; onChange: (id: string) => void }) {
  const list = useQuery({ queryKey: ['destinations', projectId], queryFn: () => api.destinations.list(projectId, { limit: 100 }) });
  const destinations = list.data?.data ?? [];
  if (destinations.length === 0 && !value) return null;
  return (
    <label>
      Write the results to
      <select name="destinationId" value={value} onChange={(event) => onChange((event.currentTarget as HTMLSelectElement).value)}>
        <option value="">no destination</option>
        {destinations.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name || d.bucket} — {destinationWhere(d)}
          </option>
        ))}
      </select>
    </label>
  );
}
