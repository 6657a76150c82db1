/**
 * multipart/form-data as the platforms read it, byte for byte (uploads carry binary files, so the
 * body is split as bytes, never decoded as text first). Header names are case-insensitive and the
 * space after `:` is optional (grammY writes `content-disposition:form-data;name="x";filename=y`);
 * a filename may be quoted or bare.
 */

export interface MultipartFile {
  /** The form field the file came in. */
  field: string;
  filename: string;
  contentType: string | undefined;
  data: Buffer;
}

export interface Multipart {
  fields: Record<string, string>;
  files: MultipartFile[];
}

/** The boundary of a `multipart/form-data; boundary=…` content type; undefined for anything else. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return undefined;
  return /boundary=("?)([^";]+)\1/i.exec(contentType)?.[2];
}

/** Splits a multipart body into its text fields and its files. Throws on a body that is not one. */
export function parseMultipart(body: Buffer, boundary: string): Multipart {
  const delimiter = Buffer.from(`--${boundary}`);
  const fields: Record<string, string> = {};
  const files: MultipartFile[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('multipart body without its boundary');
  for (;;) {
    let start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break; // the closing delimiter
    if (body.subarray(start, start + 2).toString() === '\r\n') start += 2;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), start);
    if (next < 0) throw new Error('multipart body not closed');
    const part = body.subarray(start, next);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error('multipart part without headers');
    const headers = part.subarray(0, headEnd).toString('utf8').split('\r\n');
    const data = part.subarray(headEnd + 4);
    const disposition = headers.find((h) => /^content-disposition\s*:/i.test(h)) ?? '';
    const contentType = headers.find((h) => /^content-type\s*:/i.test(h))?.replace(/^content-type\s*:\s*/i, '');
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? /;\s*name=([^;\s]+)/i.exec(disposition)?.[1];
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1] ?? /;\s*filename=([^;\r\n]+)/i.exec(disposition)?.[1];
    if (name !== undefined) {
      if (filename !== undefined) files.push({ field: name, filename, contentType, data: Buffer.from(data) });
      else fields[name] = data.toString('utf8');
    }
    at = next + 2;
  }
  return { fields, files };
}
