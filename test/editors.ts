/** The editor setups of README.md and editors/zed: the command each one starts the server with. */
import { parse as parseToml } from 'smol-toml';

/** The command a snippet of each editor's setup starts the server with. */
export function editorCommands(text: string, zedSource: string): Record<string, string[]> {
  const lua = /cmd = \{ ([^}]+) \}/.exec(text)?.[1].split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
  const toml = /```toml\n(\[language-server\.prefixlint\][\s\S]*?)```/.exec(text)?.[1];
  const helix = toml ? (parseToml(toml) as { 'language-server': { prefixlint: { command: string; args: string[] } } })['language-server'].prefixlint : undefined;
  const zedArgs = /const ARGS: \[&str; \d+\] = \[([^\]]+)\]/.exec(zedSource)?.[1].split(',').map((s) => s.trim().replace(/^"|"$/g, ''));
  const zedCommand = /\.which\("([^"]+)"\)/.exec(zedSource)?.[1];
  return {
    neovim: lua ?? [],
    helix: helix ? [helix.command, ...helix.args] : [],
    zed: zedCommand && zedArgs ? [zedCommand, ...zedArgs] : [],
  };
}
