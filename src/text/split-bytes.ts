/**
 * UTF-8 bytes decoded and split at `separator` (an ASCII byte), each part its own string: as
 * `bytes.toString('utf8').split(String.fromCharCode(separator))` gives, but parts cut from one
 * decoded whole are slices that keep all of it alive as long as any is (a 200,000-path listing
 * held 34 MB for as long as one path was kept).
 */
export function splitBytes(bytes: Buffer, separator: number): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let end = bytes.indexOf(separator); end !== -1; end = bytes.indexOf(separator, start)) {
    parts.push(bytes.toString('utf8', start, end));
    start = end + 1;
  }
  parts.push(bytes.toString('utf8', start));
  return parts;
}
