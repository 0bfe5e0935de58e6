/* Who is calling: the team behind the request's API token. */
import type { NextFunction, Request, Response } from 'express';

export interface Team {
  id: string;
  plan: 'free' | 'team' | 'enterprise';
  scopes: string[];
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: Team;
    }
  }
}

const TEAMS: Record<string, Team> = JSON.parse(process.env.TEAMS_JSON ?? '{}');

export function requireTeam(req: Request, res: Response, next: NextFunction): void {
  const team = TEAMS[req.get('authorization')?.replace(/^Bearer /, '') ?? ''];
  if (!team) {
    res.status(401).json({ error: 'unknown token' });
    return;
  }
  req.user = team;
  next();
}
