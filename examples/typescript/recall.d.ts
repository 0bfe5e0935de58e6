/* The client of the team's memory search service (not part of this example): facts remembered about a user that match a question. */
export declare function searchMemories(userId: string, question: string): Promise<string>;
