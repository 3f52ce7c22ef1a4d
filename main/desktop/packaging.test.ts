/**
 * electron-builder.yml, checked without packaging (which needs Electron binaries and the network):
 * against electron-builder's own configuration schema, with the options electron-builder validates
 * with, and against what the app itself says about its identity, links and icons.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { APP_ID, PRODUCT_NAME } from './identity.ts';
import { LINK_SCHEME } from './protocol.ts';
import { TRAY_STATUSES } from './tray-status.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
// The schema of the app-builder-lib that the installed electron-builder itself loads.
const builderRequire = createRequire(require.resolve('electron-builder'));
const schema = JSON.parse(
  readFileSync(builderRequire.resolve('app-builder-lib/scheme.json'), 'utf8'),
) as object;
/** The parts of the configuration these tests read. */
interface BuilderConfig {
  appId: string;
  productName: string;
  icon: string;
  directories: { app: string };
  files: string[];
  extraResources: { from: string }[];
  protocols: { name: string; schemes: string[] }[];
  linux: { target: string[]; mimeTypes: string[] };
  mac: { target: string[] };
  win: { target: string[] };
}
const config = load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  productName: string;
  main: string;
};

// The options of app-builder-lib's own schemaValidator.
const check = new Ajv({ allErrors: true, verbose: true, coerceTypes: true, strict: false }).compile(schema);

function validate(candidate: unknown) {
  return { valid: check(structuredClone(candidate)), errors: check.errors ?? [] };
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it("is valid for electron-builder's configuration schema", () => {
    const { valid, errors } = validate(config);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be refused with a misspelt option (the check is not vacuous)', () => {
    const { valid, errors } = validate({ ...config, linux: { ...config.linux, targt: ['deb'] } });
    expect(valid).toBe(false);
    expect(errors.map((e) => e.params)).toContainEqual({ additionalProperty: 'targt' });
  });

  it('names the app as the app names itself', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.productName).toBe(PRODUCT_NAME);
    expect(pkg.productName).toBe(PRODUCT_NAME);
  });

  it('builds an AppImage and a deb for Linux, a dmg for macOS and an NSIS installer for Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('registers the clever-reaper:// links', () => {
    expect(config.protocols).toEqual([{ name: expect.any(String), schemes: [LINK_SCHEME] }]);
    expect(config.linux.mimeTypes).toContain(`x-scheme-handler/${LINK_SCHEME}`);
  });

  it('packages the build alone: out/desktop, whose entry is the one `electron .` runs from a checkout', () => {
    expect(config.directories.app).toBe('out/desktop');
    expect(config.files).toEqual(['main/**', 'preload/**', 'renderer/**', 'package.json', '!**/*.map']);
    expect(pkg.main).toBe('out/desktop/main/index.js');
  });

  it('has an app icon of 512 px and a tray icon of 16 and 32 px for every tray status', () => {
    expect(pngSize(join(root, config.icon))).toEqual({ width: 512, height: 512 });
    const icons = join(root, config.extraResources[0]!.from);
    for (const status of TRAY_STATUSES) {
      expect(pngSize(join(icons, 'tray', `${status}.png`)), status).toEqual({ width: 16, height: 16 });
      expect(pngSize(join(icons, 'tray', `${status}@2x.png`)), status).toEqual({ width: 32, height: 32 });
    }
  });
});
