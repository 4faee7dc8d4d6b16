/**
 * A permanent problem with one knowledge source (a file that is not what it claims, a page that
 * answers 404, an address the guard refuses). Ingestion marks the source failed with `message`,
 * which is written for the user and shown next to the file or URL, and does not retry.
 * Anything else thrown while ingesting is treated as transient (the queue retries).
 */
export class KnowledgeSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KnowledgeSourceError';
  }
}

/** The reasons shown to the user (English; the UI shows them as sent). */
export const knowledgeMessages = {
  notPdf: 'The file could not be read as a PDF',
  pdfEncrypted: 'The PDF is password-protected',
  notDocx: 'The file could not be read as a Word (.docx) document',
  notDoc: 'The file could not be read as a Word (.doc) document',
  notText: 'The file could not be read as text',
  noTextInFile: 'No text found in this file (scanned PDFs are not supported yet)',
  noTextOnPage: 'No readable text found on this page',
  unsupportedFile: 'Unsupported file type (use PDF, TXT, DOC or DOCX)',
  fileTooLarge: 'The file is larger than 50 MB',
  fileMissing: 'The uploaded file was not found; upload it again',
  tooManyChunks: (max: number) => `The document is too long: it has more than ${max.toLocaleString('en-US')} sections of text. Split it into smaller files`,
  httpStatus: (status: number) => `The page returned HTTP ${status}`,
  unsupportedContentType: (type: string) => `Unsupported content type: ${type}`,
  pageTooLarge: (mb: number) => `The page is larger than ${mb} MB`,
  pageTimeout: (seconds: number) => `The page did not answer within ${seconds} seconds`,
  pageUnreachable: 'The page could not be reached',
  blocked: 'Blocked: the address is private',
} as const;
