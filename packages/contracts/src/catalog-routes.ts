import { Type } from '@sinclair/typebox';
import {
  AuditEvent,
  AuditQuery,
  CreateJobBody,
  CreateProjectBody,
  CreateScheduleBody,
  ExportCsvFile,
  ExportJsonFile,
  ExportQuery,
  Job,
  JobResults,
  ListJobsQuery,
  ListProjectsQuery,
  ListSchedulesQuery,
  Project,
  ProjectIdParams,
  ResultsQuery,
  Schedule,
  UpdateProjectBody,
  UpdateScheduleBody,
} from './catalog.ts';
import { DataEnvelope, IdParams, ListEnvelope } from './common.ts';
import { ErrorEnvelope } from './errors.ts';
import { JobEstimate } from './job-estimate.ts';
import { JobEventStream } from './job-events.ts';
import { defineRoutes } from './route-spec.ts';

const E = ErrorEnvelope;
const authErrors = { 401: E } as const;

/** Public routes owned by catalog (projects, jobs, results, exports, schedules, audit). */
export const CatalogRoutes = defineRoutes({
  listProjects: {
    method: 'GET',
    url: '/projects',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List the organization's projects",
      tags: ['projects'],
      querystring: ListProjectsQuery,
      response: { 200: ListEnvelope(Project), 400: E, ...authErrors },
    },
  },
  createProject: {
    method: 'POST',
    url: '/projects',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Create a project',
      tags: ['projects'],
      body: CreateProjectBody,
      response: { 201: DataEnvelope(Project), 400: E, ...authErrors },
    },
  },
  updateProject: {
    method: 'PATCH',
    url: '/projects/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Rename or (un)archive a project',
      tags: ['projects'],
      params: IdParams,
      body: UpdateProjectBody,
      response: { 200: DataEnvelope(Project), 400: E, ...authErrors, 404: E },
    },
  },
  createJob: {
    method: 'POST',
    url: '/projects/:projectId/jobs',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Create a crawl job: validates, reserves credits, persists and enqueues',
      tags: ['jobs'],
      params: ProjectIdParams,
      body: CreateJobBody,
      response: { 201: DataEnvelope(Job), 400: E, ...authErrors, 402: E, 403: E, 404: E, 409: E },
    },
  },
  estimateJob: {
    method: 'POST',
    url: '/projects/:projectId/jobs/estimate',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'What a create with this body would reserve, count and wait for; creates and reserves nothing',
      description:
        'Takes the body of `POST /projects/:projectId/jobs` and answers with its validation (the same 400s): the credits it would reserve (a ceiling for reviews and offers), its distinct targets, the monthly limits it counts against, whether the balance covers it, and where it would wait in the queue.',
      tags: ['jobs'],
      params: ProjectIdParams,
      body: CreateJobBody,
      response: { 200: DataEnvelope(JobEstimate), 400: E, ...authErrors, 404: E, 409: E },
    },
  },
  listJobs: {
    method: 'GET',
    url: '/projects/:projectId/jobs',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List a project's jobs, newest first",
      tags: ['jobs'],
      params: ProjectIdParams,
      querystring: ListJobsQuery,
      response: { 200: ListEnvelope(Job), 400: E, ...authErrors, 404: E },
    },
  },
  getJob: {
    method: 'GET',
    url: '/jobs/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'A job with its targets and progress',
      tags: ['jobs'],
      params: IdParams,
      response: { 200: DataEnvelope(Job), ...authErrors, 404: E },
    },
  },
  jobEvents: {
    method: 'GET',
    url: '/jobs/:id/events',
    owner: 'catalog',
    access: 'user',
    raw: true,
    schema: {
      summary: "The job's live events (Server-Sent Events) until it ends",
      description:
        'A `job` snapshot first, `target` events as targets succeed or fail, a `job` event on each status change, then `end` and close. `Last-Event-ID` resumes after that event. 429 when the organization has too many streams open.',
      tags: ['jobs'],
      params: IdParams,
      response: { 200: JobEventStream, ...authErrors, 404: E, 429: E },
    },
  },
  jobResults: {
    method: 'GET',
    url: '/jobs/:id/results',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "A page of the job's results",
      tags: ['jobs'],
      params: IdParams,
      querystring: ResultsQuery,
      response: { 200: DataEnvelope(JobResults), 400: E, ...authErrors, 404: E },
    },
  },
  exportJob: {
    method: 'GET',
    url: '/jobs/:id/export',
    owner: 'catalog',
    access: 'user',
    raw: true,
    rawResponse: {
      status: 200,
      description: 'The results as a file download (`Content-Disposition: attachment`), in the requested format.',
      content: { 'application/json': ExportJsonFile, 'text/csv': ExportCsvFile },
      headers: { 'content-disposition': Type.String({ examples: ['attachment; filename="job-job_123.csv"'] }) },
    },
    schema: {
      summary: "Download the job's results as a JSON or CSV file",
      description:
        'Streams a file with Content-Disposition: attachment. Counts against exportsPerMonth. Only a finished job (completed, failed or cancelled) can be exported: an unfinished one answers 409 and is not counted.',
      tags: ['jobs'],
      params: IdParams,
      querystring: ExportQuery,
      response: { 400: E, ...authErrors, 403: E, 404: E, 409: E },
    },
  },
  retryJob: {
    method: 'POST',
    url: '/jobs/:id/retry',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Create a new queued job with the same type, config and targets',
      tags: ['jobs'],
      params: IdParams,
      response: { 201: DataEnvelope(Job), ...authErrors, 402: E, 403: E, 404: E, 409: E },
    },
  },
  cancelJob: {
    method: 'POST',
    url: '/jobs/:id/cancel',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Cancel a queued or running job; unprocessed targets are refunded',
      tags: ['jobs'],
      params: IdParams,
      response: { 200: DataEnvelope(Job), ...authErrors, 404: E, 409: E },
    },
  },
  createSchedule: {
    method: 'POST',
    url: '/projects/:projectId/schedules',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Create a cron schedule that creates jobs',
      tags: ['schedules'],
      params: ProjectIdParams,
      body: CreateScheduleBody,
      response: { 201: DataEnvelope(Schedule), 400: E, ...authErrors, 404: E, 409: E },
    },
  },
  listSchedules: {
    method: 'GET',
    url: '/projects/:projectId/schedules',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "List a project's schedules, newest first",
      tags: ['schedules'],
      params: ProjectIdParams,
      querystring: ListSchedulesQuery,
      response: { 200: ListEnvelope(Schedule), 400: E, ...authErrors, 404: E },
    },
  },
  updateSchedule: {
    method: 'PATCH',
    url: '/schedules/:id',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: 'Enable, disable or change a schedule',
      tags: ['schedules'],
      params: IdParams,
      body: UpdateScheduleBody,
      response: { 200: DataEnvelope(Schedule), 400: E, ...authErrors, 404: E },
    },
  },
  listAudit: {
    method: 'GET',
    url: '/audit',
    owner: 'catalog',
    access: 'user',
    schema: {
      summary: "The organization's audit events, newest first",
      tags: ['audit'],
      querystring: AuditQuery,
      response: { 200: ListEnvelope(AuditEvent), 400: E, ...authErrors },
    },
  },
});
