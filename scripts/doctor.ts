// `npm run doctor`: what this shop still lacks for real customers (server/doctor.ts), each
// item ok or missing with how to set it, from the same settings `npm start` reads (the
// environment, then .env in the checkout). Changes nothing; exits 0 whatever it finds.
import path from "node:path";
import { existsSync } from "node:fs";
import { doctorOptionsFromEnv, doctorReport, formatDoctor } from "../server/doctor.ts";
import { ROOT } from "../server/pocketbase-process.ts";

const envFile = path.join(ROOT, ".env");
if (existsSync(envFile)) process.loadEnvFile(envFile);
const options = doctorOptionsFromEnv(process.env, ROOT);
const items = await doctorReport(process.env, options);
const missing = items.filter((i) => !i.ok).length;
console.log(`Shop check (HOST=${options.host}, data in ${path.relative(ROOT, options.dataDir) || "."}):`);
console.log(formatDoctor(items));
console.log(missing === 0 ? "Everything a real shop needs is set." : `${missing} of ${items.length} missing for a real shop.`);
