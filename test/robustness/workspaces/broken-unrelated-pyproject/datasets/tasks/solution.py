def solve(numbers):
    return sorted(set(numbers))
