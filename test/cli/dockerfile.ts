// Reads what a Dockerfile's final stage promises to whoever runs the image: entry, command,
// healthcheck, volumes, environment, exposed ports, and what it is made of (its COPY and RUN lines). Enough of the syntax for our own Dockerfile
// (continuation lines, exec and shell forms, `ENV K=V` and `ENV K V`), not a general parser.

export interface ImageSpec {
  entrypoint: string[] | undefined;
  cmd: string[] | undefined;
  healthcheck: { test: string[]; options: Record<string, string> } | undefined;
  volumes: string[];
  env: Record<string, string>;
  expose: string[];
  workdir: string;
  /** COPY lines in order: `from` is the stage copied from (undefined: the build context). */
  copies: { from: string | undefined; sources: string[]; target: string }[];
  /** RUN lines in order, as the shell gets them. */
  runs: string[];
}

/** Exec form `["a", "b"]` as given; shell form as Docker runs it. */
function command(args: string): string[] {
  const text = args.trim();
  return text.startsWith('[') ? (JSON.parse(text) as string[]) : ['/bin/sh', '-c', text];
}

function words(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

export function readDockerfile(text: string): ImageSpec {
  const instructions = text
    .replace(/\\\r?\n/g, ' ') // continuation lines
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [, name = '', args = ''] = /^(\S+)\s*(.*)$/.exec(l) ?? [];
      return { name: name.toUpperCase(), args };
    });
  const lastFrom = instructions.map((i) => i.name).lastIndexOf('FROM');
  const spec: ImageSpec = {
    entrypoint: undefined,
    cmd: undefined,
    healthcheck: undefined,
    volumes: [],
    env: {},
    expose: [],
    workdir: '/',
    copies: [],
    runs: [],
  };
  for (const { name, args } of instructions.slice(lastFrom + 1)) {
    switch (name) {
      case 'ENTRYPOINT':
        spec.entrypoint = command(args);
        break;
      case 'CMD':
        spec.cmd = command(args);
        break;
      case 'HEALTHCHECK': {
        const options: Record<string, string> = {};
        let rest = args.trim();
        for (let m = /^--([\w-]+)=(\S+)\s+/.exec(rest); m; m = /^--([\w-]+)=(\S+)\s+/.exec(rest)) {
          options[m[1]!] = m[2]!;
          rest = rest.slice(m[0].length);
        }
        spec.healthcheck = /^NONE$/i.test(rest) ? undefined : { test: command(rest.replace(/^CMD\s+/i, '')), options };
        break;
      }
      case 'VOLUME':
        spec.volumes.push(...(args.trim().startsWith('[') ? (JSON.parse(args) as string[]) : words(args)));
        break;
      case 'ENV': {
        const parts = words(args);
        if (parts.length > 0 && !parts[0]!.includes('=')) spec.env[parts[0]!] = parts.slice(1).join(' ');
        else for (const p of parts) spec.env[p.slice(0, p.indexOf('='))] = p.slice(p.indexOf('=') + 1);
        break;
      }
      case 'WORKDIR':
        spec.workdir = args.trim();
        break;
      case 'COPY': {
        const parts = words(args);
        const from = parts.find((p) => p.startsWith('--from='))?.slice('--from='.length);
        const paths = parts.filter((p) => !p.startsWith('--'));
        spec.copies.push({ from, sources: paths.slice(0, -1), target: paths.at(-1) ?? '' });
        break;
      }
      case 'RUN':
        spec.runs.push(args.trim());
        break;
      case 'EXPOSE':
        spec.expose.push(...words(args).map((p) => p.replace(/\/tcp$/, '')));
        break;
    }
  }
  return spec;
}
