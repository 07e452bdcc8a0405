import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { RequestAbortedError } from './abort.ts';
import { ForwardError } from './forward-error.ts';
import { endToEndHeaders } from './forwarded-headers.ts';
import { classifyTransportError } from './transport-failure.ts';

interface Answer {
  status: number;
  /** Without hop-by-hop headers. */
  headers: Record<string, string | string[]>;
}

/** An upstream answer: small ones of known size read whole, the others streamed as they arrive. */
export type ForwardedResponse =
  | (Answer & { payload: Buffer; body?: undefined })
  | (Answer & {
      payload?: undefined;
      /** Destroy it to stop reading: the upstream request is aborted. */
      body: Readable;
    });

/**
 * One forwarded request as undici's dispatcher sees it: settles `response` with the answer (or a
 * ForwardError), reads a small answer whole, streams a larger one with backpressure, and aborts
 * the upstream request when the gateway's client leaves before its answer is complete.
 */
export class ForwardExchange implements Dispatcher.DispatchHandler {
  readonly response: Promise<ForwardedResponse>;
  #resolve!: (answer: ForwardedResponse) => void;
  #reject!: (error: ForwardError) => void;
  #settled = false;
  #ended = false;
  #controller: Dispatcher.DispatchController | undefined;
  /** Set when the client left: the upstream request is aborted with it. */
  #left: RequestAbortedError | undefined;
  #answer: Answer | undefined;
  /** The body of an answer read whole. */
  #chunks: Buffer[] | undefined;
  /** The body of an answer streamed. */
  #body: Readable | undefined;
  readonly #wholeAnswerBytes: number;

  constructor(client: ServerResponse, wholeAnswerBytes: number) {
    this.#wholeAnswerBytes = wholeAnswerBytes;
    this.response = new Promise<ForwardedResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // A request's own 'close' is no use here: Node emits it once the request body has been read.
    client.once('close', () => {
      if (!client.writableFinished) this.#clientLeft();
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#left) controller.abort(this.#left);
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    // Informational answers (100 Continue) are the connection's business, not the client's.
    if (status < 200) return;
    const answer: Answer = { status, headers: endToEndHeaders(headers) };
    const length = headers['content-length'];
    if (length !== undefined && Number(length) <= this.#wholeAnswerBytes) {
      this.#answer = answer;
      this.#chunks = [];
      return;
    }
    this.#body = new Readable({
      read: () => controller.resume(),
      destroy: (error, callback) => {
        if (!this.#ended) controller.abort(error ?? new RequestAbortedError());
        callback(error);
      },
    });
    this.#settle({ ...answer, body: this.#body });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#chunks) this.#chunks.push(chunk);
    else if (this.#body && !this.#body.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    if (this.#chunks && this.#answer) {
      const chunks = this.#chunks;
      this.#settle({ ...this.#answer, payload: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
    } else {
      this.#body?.push(null);
    }
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#ended = true;
    if (this.#body) {
      this.#body.destroy(error);
      return;
    }
    // Once the status and headers came, a body cut short is a broken answer, whatever broke it.
    const failure = this.#left ? 'aborted' : this.#answer ? 'failed' : classifyTransportError(error);
    this.#fail(new ForwardError(failure, error));
  }

  #clientLeft(): void {
    if (this.#ended) return;
    const reason = new RequestAbortedError();
    this.#left = reason;
    this.#controller?.abort(reason);
    this.#body?.destroy();
    this.#fail(new ForwardError('aborted', reason));
  }

  #settle(answer: ForwardedResponse): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(answer);
  }

  #fail(error: ForwardError): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#reject(error);
  }
}
