import { runProcess } from '@crawl/modules';
import { catalogModule } from './module.ts';

await runProcess({ modules: [catalogModule] });
