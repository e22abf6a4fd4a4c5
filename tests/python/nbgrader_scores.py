"""Prints the scores nbgrader's gradebook holds for one assignment and notebook, as JSON:
{student: {grade_id: score}}. Run from the course directory with nbgrader's Python.

    python nbgrader_scores.py ASSIGNMENT NOTEBOOK
"""

import json
import sys

from nbgrader.api import Gradebook

assignment, notebook = sys.argv[1], sys.argv[2]
scores = {}
with Gradebook("sqlite:///gradebook.db") as gb:
    for student in gb.students:
        try:
            submission = gb.find_submission_notebook(notebook, assignment, student.id)
        except Exception:  # noqa: BLE001 - no submission from this student
            continue
        scores[student.id] = {grade.name: grade.score for grade in submission.grades}
print(json.dumps(scores, sort_keys=True))
