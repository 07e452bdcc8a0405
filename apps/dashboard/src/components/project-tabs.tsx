import { useQuery } from '@tanstack/preact-query';
import { Link, useLocation } from 'wouter-preact';
import { api } from '../api/client.ts';

/** The sections of one project, with its name (fetched once and shared by every tab). */
export function ProjectTabs({ projectId }: { projectId: string }) {
  const [location] = useLocation();
  const projects = useQuery({ queryKey: ['projects', 'all'], queryFn: () => allProjects() });
  const project = projects.data?.find((p) => p.id === projectId);
  const tabs = [
    { href: `/projects/${projectId}/jobs`, label: 'Jobs' },
    { href: `/projects/${projectId}/schedules`, label: 'Schedules' },
    { href: `/projects/${projectId}/monitors`, label: 'Monitors' },
    { href: `/projects/${projectId}/webhooks`, label: 'Webhooks' },
    { href: `/projects/${projectId}/delivery`, label: 'Delivery' },
    { href: `/projects/${projectId}/lists`, label: 'Lists' },
  ];
  return (
    <div class="project-tabs">
      <p class="crumbs">
        <Link href="/projects">Projects</Link> / <strong>{project?.name ?? projectId}</strong>
      </p>
      <nav aria-label="Project sections">
        <ul>
          {tabs.map((tab) => (
            <li key={tab.href}>
              <Link href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
                {tab.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

async function allProjects() {
  const [active, archived] = await Promise.all([api.projects.list({ limit: 100 }), api.projects.list({ limit: 100, archived: true })]);
  return [...active, ...archived];
}
