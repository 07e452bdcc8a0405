import { Type, type Static } from '@sinclair/typebox';

export const IndicatorStatus = Type.Object({
  status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  message: Type.Optional(Type.String()),
});
export type IndicatorStatus = Static<typeof IndicatorStatus>;

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    info: Type.Record(Type.String(), IndicatorStatus),
    error: Type.Record(Type.String(), IndicatorStatus),
    details: Type.Record(Type.String(), IndicatorStatus),
  },
  { $id: 'HealthResponse' },
);
export type HealthResponse = Static<typeof HealthResponse>;
