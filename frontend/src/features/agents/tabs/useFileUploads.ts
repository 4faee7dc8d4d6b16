/**
 * Uploading files to an agent: client-side checks (SPEC §5 texts), presigned tickets
 * (POST .../files/uploads), the file POSTed straight to storage (a signed form) with progress per file, then
 * POST .../files/{fileId}/complete, which queues ingestion. A failed transfer removes its record.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AGENT_LIMITS, agentMessages, invalidFilesMessage } from '@agentdesk/functions/contract';
import { ApiError } from '../../../api/client';
import { agentKnowledgeApi, postFileToTicket } from '../../../api/agentKnowledge';
import { useToast } from '../../../shared/useToast';
import { checkFiles, runPool } from './files';
import { tabErrorMessage, tabMessage } from './messages';
import { useRefreshAgent } from './queries';

export interface UploadRow {
  /** Local key (the server's file id once known). */
  key: string;
  fileId: string | null;
  name: string;
  size: number;
  loaded: number;
  phase: 'preparing' | 'uploading' | 'finishing' | 'failed';
}

/** Transfers running at once. */
const PARALLEL_UPLOADS = 3;

export function useFileUploads(agentId: string) {
  const { t } = useTranslation();
  const toast = useToast();
  const refreshAgent = useRefreshAgent(agentId);
  const [rows, setRows] = useState<UploadRow[]>([]);
  const counter = useRef(0);
  const busy = rows.length > 0;

  // Leaving the page mid-transfer would lose the files: ask first.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  const patch = (key: string, change: Partial<UploadRow>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const upload = useCallback(
    async (chosen: readonly File[]) => {
      const { accepted, rejected } = checkFiles(chosen);
      if (rejected.length > 0) toast.error(tabMessage(invalidFilesMessage(rejected)));
      if (accepted.length === 0) return;

      const batchKey = `upload-${++counter.current}`;
      const newRows: UploadRow[] = accepted.map((file, i) => ({
        key: `${batchKey}-${i}`,
        fileId: null,
        name: file.name,
        size: file.size,
        loaded: 0,
        phase: 'preparing',
      }));
      setRows((current) => [...current, ...newRows]);

      let done = 0;
      let lastMessage: string | undefined;
      let firstError: unknown;

      for (let start = 0; start < accepted.length; start += AGENT_LIMITS.filesPerRequest) {
        const files = accepted.slice(start, start + AGENT_LIMITS.filesPerRequest);
        const keys = newRows.slice(start, start + files.length).map((row) => row.key);
        let tickets;
        try {
          tickets = await agentKnowledgeApi.requestUploads(agentId, {
            files: files.map((file) => ({ name: file.name, size: file.size, type: file.type })),
          });
        } catch (err) {
          firstError ??= err;
          setRows((current) => current.filter((row) => !keys.includes(row.key)));
          continue;
        }
        await runPool(files, PARALLEL_UPLOADS, async (file, i) => {
          const key = keys[i] as string;
          const ticket = tickets[i];
          if (!ticket) {
            firstError ??= new ApiError(500, undefined);
            setRows((current) => current.filter((row) => row.key !== key));
            return;
          }
          patch(key, { fileId: ticket.file.id, phase: 'uploading' });
          try {
            await postFileToTicket(ticket, file, (loaded) => patch(key, { loaded }));
            patch(key, { phase: 'finishing', loaded: file.size });
            const res = await agentKnowledgeApi.completeUpload(agentId, ticket.file.id);
            done += 1;
            lastMessage = res.message ?? lastMessage;
          } catch (err) {
            firstError ??= err;
            // The record would stay 'uploading' for ever: remove it (best effort).
            void agentKnowledgeApi.deleteFile(agentId, ticket.file.id).catch(() => undefined);
          } finally {
            setRows((current) => current.filter((row) => row.key !== key));
          }
        });
      }

      void refreshAgent();
      if (done > 0) {
        // One file: the server's own message; several: the same text for the total.
        toast.success(tabMessage(done === 1 && lastMessage ? lastMessage : agentMessages.filesUploaded(done)));
      }
      if (firstError !== undefined) toast.error(tabErrorMessage(firstError, t('agentTabs.files.uploadFailed')));
    },
    [agentId, refreshAgent, t, toast],
  );

  return { rows, busy, upload };
}
