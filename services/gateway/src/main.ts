import { runProcess } from '@crawl/modules';
import { gatewayModule } from './module.ts';

await runProcess({ modules: [gatewayModule] });
