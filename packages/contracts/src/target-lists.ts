import { Type, type Static } from '@sinclair/typebox';
import { JobTypeSchema, ProjectIdParams } from './catalog.ts';
import { DataEnvelope, IdParams, ListEnvelope, Timestamp } from './common.ts';
import { ErrorEnvelope } from './errors.ts';
import { defineRoutes } from './route-spec.ts';

/** Bounds of a target list (docs/catalog.md, Target lists). */
export const TARGET_LIST_LIMITS = {
  /** Accepted targets in one list; lines beyond it are refused with the reason. */
  maxTargets: 100_000,
  /** Lines read from one upload (blank lines, duplicates and refusals count). */
  maxLines: 200_000,
  /** Bytes of one upload: 100,000 product URLs of 160 bytes fit. */
  maxUploadBytes: 16 * 1024 * 1024,
  /** Bytes of one line; a longer one is refused without being held whole. */
  maxLineBytes: 4096,
  /** Refused lines listed in the answer; the counts cover every one. */
  maxRejectedShown: 1000,
  /** Targets per stored page of a list. */
  pageSize: 5000,
  nameMaxLength: 120,
  listsPerProject: 100,
  /** Targets shown per page of `GET /target-lists/:id`. */
  targetsMaxLimit: 1000,
} as const;

export const UploadTargetListQuery = Type.Object(
  {
    type: JobTypeSchema,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: TARGET_LIST_LIMITS.nameMaxLength })),
  },
  { additionalProperties: false },
);
export type UploadTargetListQuery = Static<typeof UploadTargetListQuery>;

export const RejectedLine = Type.Object({
  line: Type.Integer({ minimum: 1, description: 'The line number in the upload (1 is the first line, a CSV header included).' }),
  value: Type.String({ description: 'The line’s target as read (at most 200 characters).' }),
  reason: Type.String(),
});
export type RejectedLine = Static<typeof RejectedLine>;

export const TargetListCounts = Type.Object({
  received: Type.Integer({ minimum: 0, description: 'Lines holding a target (blank lines and a CSV header are not counted).' }),
  accepted: Type.Integer({ minimum: 0, description: 'Distinct valid targets stored.' }),
  duplicates: Type.Integer({ minimum: 0, description: 'Valid targets equal to an earlier one (same ASIN, id or folded keyword).' }),
  rejected: Type.Integer({ minimum: 0, description: 'Targets refused; the first 1,000 are listed with their reasons.' }),
});
export type TargetListCounts = Static<typeof TargetListCounts>;

export const TargetList = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  name: Type.String(),
  type: JobTypeSchema,
  counts: TargetListCounts,
  createdAt: Timestamp,
});
export type TargetList = Static<typeof TargetList>;

export const TargetListUpload = Type.Object({
  list: TargetList,
  rejectedLines: Type.Array(RejectedLine),
});
export type TargetListUpload = Static<typeof TargetListUpload>;

export const ListTargetListsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListTargetListsQuery = Static<typeof ListTargetListsQuery>;

export const GetTargetListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TARGET_LIST_LIMITS.targetsMaxLimit, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: TARGET_LIST_LIMITS.maxTargets, default: 0 })),
  },
  { additionalProperties: false },
);
export type GetTargetListQuery = Static<typeof GetTargetListQuery>;

export const TargetListWithTargets = Type.Object({
  list: TargetList,
  targets: Type.Array(Type.String(), { description: 'The accepted targets as uploaded, in upload order.' }),
  meta: Type.Object({ total: Type.Integer({ minimum: 0 }), limit: Type.Integer({ minimum: 0 }), offset: Type.Integer({ minimum: 0 }) }),
});
export type TargetListWithTargets = Static<typeof TargetListWithTargets>;

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** Public target-list routes, owned by catalog (docs/catalog.md, Target lists). */
export const TargetListRoutes = defineRoutes({
  uploadTargetList: {
    method: 'POST',
    url: '/projects/:projectId/target-lists',
    owner: 'catalog',
    access: 'user',
    streamedBody: { contentTypes: ['text/plain', 'text/csv'], maxBytes: TARGET_LIST_LIMITS.maxUploadBytes },
    schema: {
      summary: 'Upload a target list (plain text or CSV, up to 100,000 targets), checked as a job’s targets are',
      description:
        'The body is read as a stream, line by line: `text/plain` holds one target per line; `text/csv` takes the column named `target`, `asin`, `keyword` or `url` when the first line names one, else the first column. Targets are trimmed, resolved and de-duplicated with the rules of `type`; the answer counts what was received, accepted, duplicated and refused, and lists the first 1,000 refused lines with their reasons. 400 when no target is valid or the upload exceeds the limits (200,000 lines); 413 past 16 MiB.',
      tags: ['target-lists'],
      params: ProjectIdParams,
      querystring: UploadTargetListQuery,
      response: { 201: DataEnvelope(TargetListUpload), 400: E, ...authErrors, 404: E, 409: E, 413: E, 415: E },
    },
  },
  listTargetLists: {
    method: 'GET',
    url: '/projects/:projectId/target-lists',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A project's target lists, newest first",
      tags: ['target-lists'],
      params: ProjectIdParams,
      querystring: ListTargetListsQuery,
      response: { 200: ListEnvelope(TargetList), 400: E, ...authErrors, 404: E },
    },
  },
  getTargetList: {
    method: 'GET',
    url: '/target-lists/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'A target list with a page of its targets',
      tags: ['target-lists'],
      params: IdParams,
      querystring: GetTargetListQuery,
      response: { 200: DataEnvelope(TargetListWithTargets), 400: E, ...authErrors, 404: E },
    },
  },
  deleteTargetList: {
    method: 'DELETE',
    url: '/target-lists/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Delete a target list (jobs already created from it keep their targets)',
      tags: ['target-lists'],
      params: IdParams,
      response: { 204: Type.Null(), ...authErrors, 404: E },
    },
  },
});
