//! The prefixlint extension for Zed: starts the language server of the prefixlint npm package
//! (`npm install --global prefixlint`) for Python, TypeScript, TSX and JavaScript. The server
//! pushes its diagnostics, so Zed needs nothing else from it.
use zed_extension_api::{self as zed, LanguageServerId, Result};

struct Prefixlint;

/// The command the server is started with (the README's Neovim and Helix setups use the same).
const ARGS: [&str; 2] = ["server", "--stdio"];

impl zed::Extension for Prefixlint {
    fn new() -> Self {
        Prefixlint
    }

    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
        let command = worktree
            .which("prefixlint")
            .ok_or_else(|| "prefixlint is not on PATH: install it with `npm install --global prefixlint`".to_string())?;
        Ok(zed::Command {
            command,
            args: ARGS.iter().map(|a| a.to_string()).collect(),
            env: worktree.shell_env(),
        })
    }
}

zed::register_extension!(Prefixlint);
