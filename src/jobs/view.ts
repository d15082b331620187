import type { JobRecord, JobResult, JobStatus } from './ports.js';

/** The planning job object of section 2.2, as the API returns it and the event carries it. */
export interface JobView {
  job_id: number;
  status: JobStatus;
  input: { order_ids: number[]; vehicle_ids: number[]; warehouse_id: number | null };
  /** `{}` until done and on failure. */
  result: JobResult | Record<string, never>;
  error: string;
  created_at: string;
  updated_at: string;
}

export function toJobView(job: JobRecord): JobView {
  return {
    job_id: job.id,
    status: job.status,
    input: { order_ids: [...job.input.order_ids], vehicle_ids: [...job.input.vehicle_ids], warehouse_id: job.input.warehouse_id },
    result: job.status === 'done' && job.result ? structuredClone(job.result) : {},
    error: job.error,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}
