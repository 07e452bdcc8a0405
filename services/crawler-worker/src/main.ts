import { runProcess } from '@crawl/modules';
import { crawlerWorkerModule } from './module.ts';

await runProcess({ modules: [crawlerWorkerModule] });
