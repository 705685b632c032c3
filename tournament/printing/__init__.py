"""Printouts as PDF (ReportLab): pairings, standings, result and prize slips, decklists, rules sheet.

Documents (tournament.printing.documents) take plain dataclasses
(tournament.printing.data) and return PDF bytes; tournament.printing.operations
loads that data from the database; views and the CLI call the operations.
"""
from .documents import DOCUMENTS, render  # noqa: F401
