import { describeWorkQueueContract } from '@crawl/queue/testing';
import { InProcessQueueProvider } from './in-process-queue.ts';

describeWorkQueueContract('in-process', async () => new InProcessQueueProvider());
