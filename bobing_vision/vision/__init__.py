"""vision"""
