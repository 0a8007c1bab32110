import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { incomingFile, keepAs, safeFileName } from '../../src/files/file-storage.ts';

describe('safeFileName', () => {
  it.each([
    ['photo.jpg', 'jpg', 'photo.jpg'],
    ['Pied cassé (vue de face).JPG', 'jpg', 'Pied-casse-vue-de-face.jpg'],
    ['../../etc/passwd', 'png', 'passwd.png'],
    ['..\\..\\windows\\win.ini', 'png', 'win.png'],
    ['.htaccess', 'jpg', 'file.jpg'],
    ['..', 'jpg', 'file.jpg'],
    ['', 'mp4', 'file.mp4'],
    ['shell.php', 'png', 'shell.png'],
    ['archive.tar.gz', 'jpg', 'archive.tar.jpg'],
    ['<img src=x onerror=alert(1)>.jpg', 'jpg', 'img-src-x-onerror-alert-1.jpg'],
    ['nul\u0000byte.jpg', 'jpg', 'nul-byte.jpg'],
    [`${'a'.repeat(300)}.jpg`, 'jpg', `${'a'.repeat(100)}.jpg`],
  ])('when the given name is %j and the content is %s, the stored name is %s', (given, extension, expected) => {
    expect(safeFileName(given, extension)).toBe(expected);
  });
});

describe('keepAs', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'storage-'));
  });
  afterEach(async () => rm(directory, { recursive: true, force: true }));

  const receive = async (content: string): Promise<string> => {
    const incoming = await incomingFile(directory);
    await writeFile(incoming, content);
    return incoming;
  };

  it('when the name is free, the file takes it and the incoming file is gone', async () => {
    const name = await keepAs(await receive('one'), 'photo.jpg');

    expect(name).toBe('photo.jpg');
    expect(await readdir(directory)).toEqual(['photo.jpg']);
  });

  it('when the name is taken, the new file gets a numbered name and the first one is untouched', async () => {
    await keepAs(await receive('one'), 'photo.jpg');
    const [second, third] = await Promise.all([keepAs(await receive('two'), 'photo.jpg'), keepAs(await receive('three'), 'photo.jpg')]);

    expect([second, third].sort()).toEqual(['photo-2.jpg', 'photo-3.jpg']);
    expect(await readFile(path.join(directory, 'photo.jpg'), 'utf8')).toBe('one');
    expect((await readdir(directory)).sort()).toEqual(['photo-2.jpg', 'photo-3.jpg', 'photo.jpg']);
  });

  it('when the incoming folder does not exist yet, it is created', async () => {
    const incoming = await incomingFile(path.join(directory, 'sav-files', '12'));

    expect(path.dirname(incoming)).toBe(path.join(directory, 'sav-files', '12'));
    expect(path.basename(incoming)).toMatch(/^\.incoming-[0-9a-f-]{36}$/);
    expect(existsSync(path.dirname(incoming))).toBe(true);
  });
});
