export async function main(argv: string[]): Promise<void> { console.log(argv.length); }
