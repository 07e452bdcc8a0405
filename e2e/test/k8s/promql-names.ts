/**
 * PromQL read with Prometheus's own grammar (@prometheus-io/lezer-promql): the syntax errors of an
 * expression, and the metric names its selectors use.
 */
import { parser } from '@prometheus-io/lezer-promql';

export interface ParsedPromQL {
  errors: string[];
  metrics: string[];
}

export function parsePromQL(expr: string): ParsedPromQL {
  const errors: string[] = [];
  const metrics = new Set<string>();
  parser.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: …${expr.slice(Math.max(0, node.from - 20), node.from + 20)}…`);
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') metrics.add(expr.slice(node.from, node.to));
    },
  });
  return { errors, metrics: [...metrics] };
}

/**
 * The names a query may use for the registered families: a histogram's `_bucket`, `_count` and
 * `_sum` series, a summary's `_count` and `_sum`, the others by their own name.
 */
export function seriesNames(families: Array<{ name: string; type: string }>): Set<string> {
  const names = new Set<string>();
  for (const { name, type } of families) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) names.add(`${name}${suffix}`);
    if (type === 'summary') for (const suffix of ['_count', '_sum']) names.add(`${name}${suffix}`);
  }
  return names;
}
