export { crawlerWorkerModule } from './module.ts';
