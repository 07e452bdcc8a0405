import { runProcess } from '@crawl/modules';
import { authModule } from './module.ts';

await runProcess({ modules: [authModule] });
