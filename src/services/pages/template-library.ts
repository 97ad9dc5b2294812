/**
 * The built-in page templates. Each follows a documentation form with a known job (the
 * Diátaxis kinds plus the decision record, runbook and changelog every team ends up
 * writing), so a writer starts from the right questions rather than a blank page.
 * Placeholders are written in square brackets for the writer to replace.
 */

/** A template's full content: what `GET /api/v1/templates/:id` answers. */
export interface Template {
  id: string;
  name: string;
  description: string;
  /** Suggested title of a page made from it. */
  title: string;
  /** Markdown body, without frontmatter. */
  body: string;
  /** Suggested frontmatter keys (title, description, tags, status). */
  frontmatter: Record<string, unknown>;
}

const howTo: Template = {
  id: 'how-to',
  name: 'How-to guide',
  description: 'Steps that get a reader who already knows the basics to one specific result.',
  title: 'How to [achieve a specific result]',
  frontmatter: {
    title: 'How to [achieve a specific result]',
    description: '[One sentence: the result the reader will have at the end.]',
    tags: ['how-to'],
    status: 'draft',
  },
  body: `# How to [achieve a specific result]

[One or two sentences: what this guide achieves and when a reader needs it.]

## Before you start

- [Access or role needed, for example "editor rights on the workspace"]
- [Tools and versions, for example "git 2.40 or later"]
- [Anything to have done first, with a link to its guide]

## Steps

1. **[Do the first thing].**

   \`\`\`sh
   [command to run]
   \`\`\`

   [What the reader should see when this worked.]

2. **[Do the next thing].** [Explain only what the reader must decide or notice here.]

3. **[Confirm the result].** [How the reader can tell the whole task succeeded.]

## If something goes wrong

| Symptom | Cause | Fix |
| --- | --- | --- |
| [Error message or behaviour] | [Why it happens] | [What to do] |

## Related

- [Link to the reference for the settings used above]
- [Link to the next task readers usually do]
`,
};

const reference: Template = {
  id: 'reference',
  name: 'Reference',
  description: 'An exact, complete description of an API, command, configuration or schema, for lookup.',
  title: '[Component] reference',
  frontmatter: {
    title: '[Component] reference',
    description: '[What this page describes completely, for example "every option of the export command".]',
    tags: ['reference'],
    status: 'draft',
  },
  body: `# [Component] reference

[One sentence: what this component is. Link to the guide that explains when to use it.]

## Synopsis

\`\`\`
[command or signature] [--option VALUE] [ARGUMENT]
\`\`\`

## Options

| Name | Type | Default | Description |
| --- | --- | --- | --- |
| \`[name]\` | [string] | [\`default\`] | [What it does, its allowed values and their effect.] |
| \`[name]\` | [integer] | [none: required] | [What it does.] |

## Return value or output

[What comes back, field by field, or what is printed, with an example.]

\`\`\`json
{ "[field]": "[example value]" }
\`\`\`

## Errors

| Code | When |
| --- | --- |
| \`[ERROR_CODE]\` | [The condition that triggers it.] |

## Examples

\`\`\`sh
[a complete, working invocation]
\`\`\`

## See also

- [Related reference pages]
`,
};

const tutorial: Template = {
  id: 'tutorial',
  name: 'Tutorial',
  description: 'A guided lesson that takes a newcomer from nothing to a first working result.',
  title: 'Tutorial: [build something small and real]',
  frontmatter: {
    title: 'Tutorial: [build something small and real]',
    description: '[What the learner builds, and roughly how long it takes.]',
    tags: ['tutorial'],
    status: 'draft',
  },
  body: `# Tutorial: [build something small and real]

In this tutorial you will [build or do something concrete]. It takes about [N] minutes.
By the end you will have [a working result the learner can see] and know how to [skill].

## What you need

- [A computer with … installed]
- [An account on …]

## Step 1: [Set up the starting point]

[Tell the learner exactly what to do. Show every command and every file in full.]

\`\`\`sh
[command]
\`\`\`

You should now see:

\`\`\`
[expected output]
\`\`\`

## Step 2: [Add the first piece]

[Keep explanations short; link to background pages instead of digressing.]

## Step 3: [See it work]

[The moment the result becomes visible. Say what the learner has achieved.]

## What you learned

- [Skill or concept 1]
- [Skill or concept 2]

## Next steps

- [The how-to guide or tutorial to follow this one]
`,
};

const adr: Template = {
  id: 'adr',
  name: 'Architecture decision record',
  description: 'One significant decision, its context and its consequences, recorded when it is made.',
  title: 'ADR [NNNN]: [Decision in a few words]',
  frontmatter: {
    title: 'ADR [NNNN]: [Decision in a few words]',
    description: '[The decision in one sentence.]',
    tags: ['adr', 'architecture'],
    status: 'draft',
  },
  body: `# ADR [NNNN]: [Decision in a few words]

- **Status:** [Proposed | Accepted | Superseded by ADR NNNN]
- **Date:** [YYYY-MM-DD]
- **Deciders:** [Names or team]

## Context

[The forces at play: the problem, constraints, requirements and what is uncertain. Write it
so someone joining next year understands why a decision was needed.]

## Decision

We will [the decision, stated in full sentences and the active voice].

## Options considered

### [Option A]

- Good, because [argument]
- Bad, because [argument]

### [Option B]

- Good, because [argument]
- Bad, because [argument]

## Consequences

- [What becomes easier]
- [What becomes harder, and the follow-up work it creates]
- [How we will know if this was the wrong call]
`,
};

const runbook: Template = {
  id: 'runbook',
  name: 'Runbook',
  description: 'What an on-call engineer does when a specific alert fires or a service misbehaves.',
  title: 'Runbook: [Alert or situation]',
  frontmatter: {
    title: 'Runbook: [Alert or situation]',
    description: '[The alert or symptom this runbook handles.]',
    tags: ['runbook', 'operations'],
    status: 'draft',
  },
  body: `# Runbook: [Alert or situation]

| | |
| --- | --- |
| **Service** | [Service name and owner team] |
| **Severity** | [SEV level and who must be paged] |
| **Dashboards** | [Link] |
| **Escalation** | [Person or rota, and when to escalate] |

## Symptoms

[What the alert says and what users experience.]

## Check impact first

1. [Query or dashboard that shows how many users are affected.]
2. [How to tell this apart from the similar-looking situation X.]

## Mitigate

1. [The fastest safe action that stops the damage, with the exact command.]

   \`\`\`sh
   [command]
   \`\`\`

2. [How to confirm the mitigation worked.]

## Find the cause

- [Likely cause]: check [where], fix by [what].
- [Second likely cause]: check [where], fix by [what].

## Afterwards

- [ ] Tell [channel or stakeholders] the incident is resolved.
- [ ] Open a post-incident review if [condition].
- [ ] Update this runbook with anything that was missing.
`,
};

const changelog: Template = {
  id: 'changelog',
  name: 'Changelog',
  description: 'A human-readable record of notable changes per release, newest first.',
  title: 'Changelog',
  frontmatter: {
    title: 'Changelog',
    description: 'Notable changes to [project], newest first.',
    tags: ['changelog', 'releases'],
    status: 'draft',
  },
  body: `# Changelog

All notable changes to [project] are listed here, newest first. Versions follow
[Semantic Versioning](https://semver.org/).

## [Unreleased]

### Added

- [New feature, in terms of what users can now do.]

### Changed

- [Changed behaviour, and what users must do about it.]

### Fixed

- [Bug fixed, described by its symptom.]

## [1.0.0] - [YYYY-MM-DD]

### Added

- [First release highlights.]

### Removed

- [Anything removed, with the replacement to use.]

### Security

- [Vulnerability fixed, with its identifier if it has one.]
`,
};

/** Every built-in template, in the order they are listed. */
export const TEMPLATES: readonly Template[] = Object.freeze([
  howTo,
  reference,
  tutorial,
  adr,
  runbook,
  changelog,
]);
