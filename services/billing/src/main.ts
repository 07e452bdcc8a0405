import { runProcess } from '@crawl/modules';
import { billingModule } from './module.ts';

await runProcess({ modules: [billingModule] });
