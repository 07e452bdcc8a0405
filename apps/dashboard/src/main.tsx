import { QueryClient, QueryClientProvider } from '@tanstack/preact-query';
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // The SDK already retries throttled and unavailable answers once; a 4xx will not change by asking again.
    queries: { retry: false, refetchOnWindowFocus: true, staleTime: 5_000 },
  },
});

render(
  <QueryClientProvider client={queryClient}>
    <App />
  </QueryClientProvider>,
  document.getElementById('root')!,
);
