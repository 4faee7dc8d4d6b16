/** Where the contacts CSV jobs keep their files (both halves: the API requests uploads, the worker reads them and writes reports and exports). */
import { CONTACT_JOB_FILES_PREFIX } from './job-ports.js';

export const CSV_TYPE = 'text/csv';

export const uploadKey = (userId: string, uploadId: string) => `${CONTACT_JOB_FILES_PREFIX}${userId}/uploads/${uploadId}.csv`;
export const jobFileKey = (userId: string, jobId: string, name: string) => `${CONTACT_JOB_FILES_PREFIX}${userId}/${jobId}/${name}`;
