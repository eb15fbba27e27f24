/** README.txt at the root of every export: what each file holds, in the client's words. */
export function exportReadme(generatedAt: string): string {
  return `Your Spark data
===============

This archive holds everything Spark keeps about you, as it was on ${generatedAt} (UTC).

profile.json            Your account (e-mail, name, when you joined) and your progress settings:
                        goal, current evolution, streak, time zone, rest day and pause days allowed.
onboarding.json         Your answers to the onboarding questions, as you gave them.
sparks.csv, sparks.json One row per spark: when, the day it counted for in your streak, its type,
                        your note and the file name in sparks/ (empty if the file could no longer be
                        found in storage).
sparks/                 The original file of every spark, named <date>_<spark id>.<extension>.
coach-notes.json        The notes your coach wrote to you. Notes coaches keep for themselves are
                        working notes about coaching and are not part of your data export.
ditl/presentation.html  Your newest "Day in the Life" presentation (absent if none was generated).
ditl/generation.json    When it was generated and its status.
ditl/generations/       Every "Day in the Life" made for you, newest included, one folder each
                        (<date>_<id>): the presentation and generation.json with the answers it was
                        made from and its plan.
lead.json               What you told us when you asked to join (/interest): your name, company,
                        what interests you, your main challenge, whether you were approved, and when
                        (null if we hold none under your e-mail address).
donation.json           What you left on the /donate page: your words, when you wrote them, whether a
                        deck access code was issued to you (the code itself is not kept) and the
                        investor updates we e-mailed you (null if we hold none under your address).
reminders.json          Your daily reminder settings: on or off, the time, your quiet hours and the
                        device reminders are pushed to (null if you never set them). The keys that
                        let us push to that device are left out.
evolutions.csv, .json   Your evolutions: number, start and end dates, status.
streak-history.csv, .json
                        One row per day on which you captured a spark or took a pause day:
                        the day (in your time zone), how many sparks, and whether it was a pause day.

CSV files are UTF-8, comma-separated, every field in double quotes. JSON files are UTF-8.
`;
}
