import { useQueryClient } from '@tanstack/preact-query';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter-preact';
import { useSession } from './auth/session.ts';
import { signOut } from './auth/sign-in-flow.ts';
import { AdminPage } from './pages/admin.tsx';
import { AuditPage } from './pages/audit.tsx';
import { DeliveryPage } from './pages/delivery.tsx';
import { JobDetailPage } from './pages/job-detail.tsx';
import { MonitorDetailPage } from './pages/monitor-detail.tsx';
import { MonitorsPage } from './pages/monitors.tsx';
import { ProductPage } from './pages/product.tsx';
import { ProductsPage } from './pages/product-lookup.tsx';
import { ProjectJobsPage } from './pages/project-jobs.tsx';
import { ProjectsPage } from './pages/projects.tsx';
import { SchedulesPage } from './pages/schedules.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TargetListsPage } from './pages/target-lists.tsx';
import { UsagePage } from './pages/usage.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';

/** Every page lives under /app (the gateway answers index.html for any path below it). */
export function App() {
  return (
    <Router base="/app">
      <Shell />
    </Router>
  );
}

function Shell() {
  const session = useSession();
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  if (!session) {
    return (
      <main id="main" class="auth-main">
        <SignInPage />
      </main>
    );
  }
  const nav = [
    { href: '/projects', label: 'Projects' },
    { href: '/products', label: 'Products' },
    { href: '/usage', label: 'Usage & credits' },
    { href: '/audit', label: 'Audit log' },
    ...(session.role === 'admin' ? [{ href: '/admin', label: 'Admin' }] : []),
  ];
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <span class="brand">Crawl</span>
        <nav aria-label="Main">
          <ul>
            {nav.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={location.startsWith(item.href) ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who" title={session.user.email}>
          {session.user.email}
        </span>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await signOut();
            queryClient.clear();
            navigate('/');
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Switch>
          <Route path="/projects" component={ProjectsPage} />
          <Route path="/projects/:projectId/jobs">{(params) => <ProjectJobsPage projectId={params.projectId} />}</Route>
          <Route path="/projects/:projectId/schedules">{(params) => <SchedulesPage projectId={params.projectId} />}</Route>
          <Route path="/projects/:projectId/monitors">{(params) => <MonitorsPage key={params.projectId} projectId={params.projectId} />}</Route>
          <Route path="/monitors/:monitorId">{(params) => <MonitorDetailPage key={params.monitorId} monitorId={params.monitorId} />}</Route>
          <Route path="/projects/:projectId/webhooks">{(params) => <WebhooksPage projectId={params.projectId} />}</Route>
          <Route path="/projects/:projectId/delivery">{(params) => <DeliveryPage projectId={params.projectId} />}</Route>
          <Route path="/projects/:projectId/lists">{(params) => <TargetListsPage projectId={params.projectId} />}</Route>
          <Route path="/products" component={ProductsPage} />
          <Route path="/products/:asin">{(params) => <ProductPage key={params.asin} asin={params.asin} />}</Route>
          <Route path="/jobs/:jobId">{(params) => <JobDetailPage key={params.jobId} jobId={params.jobId} />}</Route>
          <Route path="/usage" component={UsagePage} />
          <Route path="/audit" component={AuditPage} />
          <Route path="/admin" component={AdminPage} />
          <Route>
            <Redirect to="/projects" />
          </Route>
        </Switch>
      </main>
    </>
  );
}
